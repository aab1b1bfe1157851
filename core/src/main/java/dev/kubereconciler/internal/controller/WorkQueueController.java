package dev.kubereconciler.internal.controller;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ControllerState;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.internal.cache.KeySink;
import dev.kubereconciler.internal.cache.NamespaceScope;
import dev.kubereconciler.internal.queue.ReconcileQueue;
import dev.kubereconciler.observation.ReconcileObservations;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.queue.QueueStats;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.sharding.KeyOwnership;
import dev.kubereconciler.time.DelayScheduler;

/**
 * Runs one controller: a work queue of {@link Request keys} and the workers that
 * reconcile them, with controller-runtime's outcome handling. This class keeps the
 * lifecycle state machine; a {@link WorkerPool} runs the workers, and a
 * {@link CurrentQueue} holds the queue of the current run.
 *
 * <p>
 * The controller manager builds every controller, starts and stops it, and the informer
 * event handlers it wires add keys through the controller's {@link KeySink} side. A key
 * is never reconciled by two workers at once. A reconciler that throws, returns
 * {@code null} or runs past its timeout never kills a worker and never wedges its key.
 */
public final class WorkQueueController implements Controller, KeySink {

	private static final Logger logger = LoggerFactory.getLogger(WorkQueueController.class);

	/** The source name under which {@link #reconcileAll()} counts its keys. */
	public static final String RECONCILE_ALL = "reconcile-all";

	private final ControllerDefinition definition;

	private final ResourceType resourceType;

	private final ControllerListener listener;

	private final WorkerContext workerContext;

	private final WorkerPool workers;

	private final PauseSwitch pause = new PauseSwitch();

	private final Object lifecycleMonitor = new Object();

	private final CurrentQueue queue;

	private volatile ControllerState state = ControllerState.NEW;

	private volatile Supplier<? extends Iterable<Request>> initialKeys = List::of;

	private volatile KeyOwnership keyOwnership;

	private final NamespaceScope scope;

	private volatile Function<Set<String>, CompletableFuture<Void>> namespaceChanges = (namespaces) -> {
		throw new IllegalStateException("Controller '" + name() + "' is not wired to a manager's caches");
	};

	private final SourceRunner sources;

	/**
	 * Create a controller.
	 * @param definition what it watches and how it is throttled
	 * @param reconciler what its workers call: the definition's reconciler, bound to the
	 * manager's caches where it takes a context
	 * @param gate the manager gate its workers pass
	 * @param listener told what it does
	 * @param clock its clock and scheduler of delays
	 * @param threadFactory makes its worker threads
	 * @param abandonGrace how long a reconcile past its timeout may ignore the interrupt
	 * @param priorityQueue whether its queue hands out keys by priority
	 * @param observations observes each reconcile, or {@code null} for none
	 */
	public WorkQueueController(ControllerDefinition definition, ReconcileFunction reconciler, ManagerGate gate,
			ControllerListener listener, DelayScheduler clock, ThreadFactory threadFactory, Duration abandonGrace,
			boolean priorityQueue, @Nullable ReconcileObservations observations) {
		this.definition = definition;
		this.scope = new NamespaceScope(definition.namespaces());
		this.keyOwnership = new ScopedOwnership(this.scope, KeyOwnership.ALL);
		this.resourceType = ResourceType.of(definition.watches());
		this.listener = listener;
		QueueObserver<Request> observer = listener.queueObserver(definition.name());
		this.workers = new WorkerPool(definition.name(), threadFactory, clock, abandonGrace);
		this.queue = new CurrentQueue(definition, clock, (observer != null) ? observer : QueueObserver.none(),
				priorityQueue);
		this.sources = new SourceRunner(definition.name(), definition.sources(), this,
				(request) -> keyOwnership().mayDispatch(request), listener, clock, threadFactory);
		this.workerContext = new WorkerContext(definition.name(), reconciler, this.queue.get(),
				new ResultHandler(definition.name(), definition.reconcileTimeout(), listener), gate, listener, clock,
				this.pause, this::keyOwnership, observations);
	}

	@Override
	public String name() {
		return this.definition.name();
	}

	@Override
	public ControllerDefinition definition() {
		return this.definition;
	}

	@Override
	public ResourceType resourceType() {
		return this.resourceType;
	}

	@Override
	public RateLimiter<Request> rateLimiter() {
		return this.definition.rateLimiter();
	}

	/**
	 * Return the current work queue. A new queue replaces it each time the controller
	 * restarts after a stop, for example after leadership was lost and regained.
	 * @return the queue
	 */
	public ReconcileQueue<Request> workQueue() {
		return this.queue.get();
	}

	@Override
	public QueueStats<Request> queue() {
		return this.queue;
	}

	@Override
	public void forget(Request request) {
		this.queue.get().forget(request);
	}

	@Override
	public ControllerState state() {
		return this.state;
	}

	@Override
	public int activeWorkers() {
		return this.workers.active();
	}

	@Override
	public void enqueue(Request request) {
		this.queue.get().add(request, Trigger.EVENT);
	}

	/**
	 * Add a key from a watch event at a priority, such as {@link Priorities#LOW} for an
	 * event that changed nothing.
	 * @param request the key
	 * @param priority the priority
	 */
	@Override
	public void add(Request request, int priority) {
		this.queue.get().add(request, Trigger.EVENT, priority);
	}

	/**
	 * Set where the keys of every cached object come from, which a start adds to the
	 * fresh queue.
	 * @param initialKeys reads the cached keys
	 */
	public void initialKeys(Supplier<? extends Iterable<Request>> initialKeys) {
		this.initialKeys = initialKeys;
	}

	Iterable<Request> cachedKeys() {
		return this.initialKeys.get();
	}

	/**
	 * Return what decides whether this replica reconciles a key: every key, unless the
	 * manager shards keys across replicas.
	 * @return the key ownership
	 */
	KeyOwnership keyOwnership() {
		return this.keyOwnership;
	}

	void keyOwnership(KeyOwnership keyOwnership) {
		this.keyOwnership = new ScopedOwnership(this.scope, keyOwnership);
	}

	/**
	 * Mark the controller as waiting for this instance to win the leader election.
	 */
	public void waitForLeadership() {
		setState(ControllerState.WAITING_FOR_LEADERSHIP);
	}

	/**
	 * Start the workers. A controller that was stopped starts again on a fresh queue
	 * filled with every key in the cache, so nothing that changed while it was stopped is
	 * missed.
	 */
	public void start() {
		start(false);
	}

	/**
	 * Start the workers when this replica won the lease it stood by for. What the
	 * informer's handler queued meanwhile is the state the last leader worked on, not a
	 * change of this term: the keys start again as an initial list, at low priority, so
	 * that a change written from now on goes first, as on a replica that started cold.
	 */
	public void takeOver() {
		start(true);
	}

	private void start(boolean takeOver) {
		synchronized (this.lifecycleMonitor) {
			if (isActive()) {
				return;
			}
			ReconcileQueue<Request> fed = this.queue.get();
			ReconcileQueue<Request> fresh = takeOver ? this.queue.replace() : this.queue.renew();
			if (fresh != fed) {
				// every cached key, as an initial list is: low priority, behind real
				// changes; the queue of a first start has them already, from the
				// informer's handler, which fed it since before the informer started
				for (Request request : this.initialKeys.get()) {
					fresh.add(request, Trigger.EVENT, Priorities.LOW);
				}
			}
			this.pause.engage();
			for (int i = 0; i < this.definition.maxConcurrentReconciles(); i++) {
				this.workers.start(this.workerContext.withQueue(fresh));
			}
			setState(this.pause.isPaused() ? ControllerState.PAUSED : ControllerState.RUNNING);
			// after the workers, on the fresh queue: a source's first key is not lost
			this.sources.start();
		}
	}

	/**
	 * Mark the controller as failed to start, for example because its cache did not sync.
	 * @param cause why
	 */
	public void fail(Throwable cause) {
		logger.error("Controller '{}' failed to start", name(), cause);
		setState(ControllerState.FAILED);
	}

	/**
	 * Stop taking new keys, let in-flight reconciles finish for up to the given timeout,
	 * then interrupt what still runs.
	 * @param timeout how long in-flight reconciles may take to finish
	 * @return {@code true} if every in-flight reconcile finished in time
	 */
	public boolean stop(Duration timeout) {
		ReconcileQueue<Request> stopping;
		List<ReconcileWorker> stopped;
		synchronized (this.lifecycleMonitor) {
			if (!isActive()) {
				if (this.state == ControllerState.WAITING_FOR_LEADERSHIP || this.state == ControllerState.NEW) {
					this.queue.get().shutDown();
					setState(ControllerState.STOPPED);
				}
				return true;
			}
			setState(ControllerState.STOPPED);
			this.sources.stop();
			stopping = this.queue.get();
			stopped = this.workers.detachAll();
		}
		// drain outside the lifecycle monitor: finishing workers must not queue up
		// behind it
		this.pause.release();
		boolean drained;
		try {
			drained = stopping.shutDownWithDrain(timeout);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			drained = false;
		}
		if (!drained) {
			logger.warn("Controller '{}' did not finish {} in-flight reconcile(s) within {}; interrupting them", name(),
					stopping.gauges().inFlight(), timeout);
		}
		this.workers.stop(stopped);
		return drained;
	}

	/**
	 * Pause the workers: in-flight reconciles finish, no new ones start, and events keep
	 * being queued until {@link #resume()}.
	 */
	@Override
	public void pause() {
		synchronized (this.lifecycleMonitor) {
			this.pause.pause();
			if (this.state == ControllerState.RUNNING) {
				setState(ControllerState.PAUSED);
			}
		}
	}

	/**
	 * Resume paused workers.
	 */
	@Override
	public void resume() {
		synchronized (this.lifecycleMonitor) {
			this.pause.resume();
			if (this.state == ControllerState.PAUSED) {
				setState(ControllerState.RUNNING);
			}
		}
	}

	@Override
	public boolean isPaused() {
		return this.pause.isPaused();
	}

	private boolean isActive() {
		return this.state == ControllerState.RUNNING || this.state == ControllerState.PAUSED;
	}

	private void setState(ControllerState state) {
		this.state = state;
		this.listener.stateChanged(name(), state);
	}

	/**
	 * Interrupt reconciles that ran past the reconcile timeout, and abandon those that
	 * ignored the interrupt for longer than the grace period, so that their keys are
	 * retried and the workers replaced. Called periodically by the manager's
	 * {@link Watchdog}.
	 */
	public void checkTimeouts() {
		Duration timeout = this.definition.reconcileTimeout();
		if (timeout.isZero()) {
			return;
		}
		int abandoned = this.workers.checkTimeouts(timeout);
		for (int i = 0; i < abandoned; i++) {
			synchronized (this.lifecycleMonitor) {
				if (isActive()) {
					this.workers.start(this.workerContext.withQueue(this.queue.get()));
				}
			}
		}
	}

	/**
	 * Set where the sources read the cache: the keys of every cached primary object, and
	 * one object by key.
	 * @param cachedKeys reads the cached keys
	 * @param cached reads one cached object
	 */
	public void sourceCache(Supplier<? extends List<Request>> cachedKeys,
			Function<Request, @Nullable KubernetesObject> cached) {
		this.sources.cache(cachedKeys, cached);
	}

	@Override
	public void reconcileAll() {
		for (Request request : this.initialKeys.get()) {
			add(request, Priorities.NORMAL);
			this.sources.added(RECONCILE_ALL);
		}
	}

	// namespaces: the namespaces reconciled now, changed while the controller runs

	/**
	 * Return the namespaces this controller reconciles now, which the informer wiring's
	 * handlers and this controller's workers read.
	 * @return the scope
	 */
	public NamespaceScope scope() {
		return this.scope;
	}

	/**
	 * Set what changes this controller's namespaces: the manager's informer caches.
	 * @param namespaceChanges changes them and completes when the added ones joined
	 */
	public void namespaceChanges(Function<Set<String>, CompletableFuture<Void>> namespaceChanges) {
		this.namespaceChanges = namespaceChanges;
	}

	@Override
	public Set<String> namespaces() {
		return this.scope.get();
	}

	@Override
	public CompletableFuture<Void> changeNamespaces(Set<String> namespaces) {
		return this.namespaceChanges.apply(namespaces);
	}

	/**
	 * Drops the keys of namespaces the controller left before any other check, so that a
	 * queued key of a removed namespace is dropped untouched, as a key of another shard
	 * is.
	 */
	private record ScopedOwnership(NamespaceScope scope, KeyOwnership ownership) implements KeyOwnership {

		@Override
		public KeyOwnership.@Nullable Permit tryDispatch(Request request) {
			return this.scope.contains(request) ? this.ownership.tryDispatch(request) : null;
		}

		@Override
		public boolean mayDispatch(Request request) {
			return this.scope.contains(request) && this.ownership.mayDispatch(request);
		}

		@Override
		public boolean park(Request request, Object owner, Runnable resume) {
			return this.scope.contains(request) && this.ownership.park(request, owner, resume);
		}

	}

}
