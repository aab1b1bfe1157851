package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.queue.RateLimitingQueue;
import dev.kubereconciler.ratelimit.DelayScheduler;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.KeyOwnership;

/**
 * Runs one controller: a work queue of {@link Request keys} and the workers that
 * reconcile them, with controller-runtime's outcome handling. This class keeps the
 * lifecycle state machine; a {@link WorkerPool} runs the workers.
 *
 * <p>
 * A {@link ControllerManager} builds every controller and adds keys from the informer
 * event handlers it wires. A key is never reconciled by two workers at once. A reconciler
 * that throws, returns {@code null} or runs past its timeout never kills a worker and
 * never wedges its key.
 */
public final class Controller {

	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	private final ControllerDefinition definition;

	private final ResourceType resourceType;

	private final ControllerListener listener;

	private final QueueObserver<Request> queueObserver;

	private final DelayScheduler clock;

	private final WorkerContext workerContext;

	private final WorkerPool workers;

	private final PauseSwitch pause = new PauseSwitch();

	private final Object lifecycleMonitor = new Object();

	private volatile RateLimitingQueue<Request> queue;

	private volatile ControllerState state = ControllerState.NEW;

	private final boolean priorityQueue;

	private volatile Supplier<? extends Iterable<Request>> initialKeys = List::of;

	private volatile KeyOwnership keyOwnership = KeyOwnership.ALL;

	Controller(ControllerDefinition definition, ManagerGate gate, ControllerListener listener, DelayScheduler clock,
			ThreadFactory threadFactory, Duration abandonGrace, boolean priorityQueue) {
		this.definition = definition;
		this.priorityQueue = priorityQueue;
		this.resourceType = ResourceType.of(definition.watches());
		this.listener = listener;
		QueueObserver<Request> observer = listener.queueObserver(definition.name());
		this.queueObserver = (observer != null) ? observer : QueueObserver.none();
		this.clock = clock;
		this.workers = new WorkerPool(definition.name(), threadFactory, clock, abandonGrace);
		this.queue = newQueue();
		this.workerContext = new WorkerContext(definition.name(), definition.reconciler(), this.queue,
				new ResultHandler(definition.name(), definition.reconcileTimeout(), listener), gate, listener, clock,
				this.pause, this::keyOwnership);
	}

	private RateLimitingQueue<Request> newQueue() {
		return RateLimitingQueue.<Request>builder()
			.name(this.definition.name())
			.rateLimiter(this.definition.rateLimiter())
			.scheduler(this.clock)
			.observer(this.queueObserver)
			.priority(this.priorityQueue)
			.build();
	}

	ControllerListener listener() {
		return this.listener;
	}

	public String name() {
		return this.definition.name();
	}

	public ControllerDefinition definition() {
		return this.definition;
	}

	public ResourceType resourceType() {
		return this.resourceType;
	}

	public RateLimiter<Request> rateLimiter() {
		return this.definition.rateLimiter();
	}

	/**
	 * Return the current work queue. A new queue replaces it each time the controller
	 * restarts after a stop, for example after leadership was lost and regained.
	 * @return the queue
	 */
	public RateLimitingQueue<Request> queue() {
		return this.queue;
	}

	public ControllerState state() {
		return this.state;
	}

	public int activeWorkers() {
		return this.workers.active();
	}

	/**
	 * Add a key from a watch event, without delay.
	 * @param request the key
	 */
	public void enqueue(Request request) {
		this.queue.add(request, AddCause.EVENT);
	}

	/**
	 * Add a key from a watch event at a priority, such as
	 * {@link RateLimitingQueue#LOW_PRIORITY} for an event that changed nothing.
	 * @param request the key
	 * @param priority the priority
	 */
	void enqueue(Request request, int priority) {
		this.queue.add(request, AddCause.EVENT, priority);
	}

	void initialKeys(Supplier<? extends Iterable<Request>> initialKeys) {
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
		this.keyOwnership = keyOwnership;
	}

	void waitForLeadership() {
		setState(ControllerState.WAITING_FOR_LEADERSHIP);
	}

	/**
	 * Start the workers. A controller that was stopped starts again on a fresh queue
	 * filled with every key in the cache, so nothing that changed while it was stopped is
	 * missed.
	 */
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (isActive()) {
				return;
			}
			if (this.queue.isShuttingDown()) {
				this.queue = newQueue();
			}
			// every cached key, as an initial list is: low priority, behind real changes
			for (Request request : this.initialKeys.get()) {
				this.queue.add(request, AddCause.EVENT, RateLimitingQueue.LOW_PRIORITY);
			}
			this.pause.engage();
			for (int i = 0; i < this.definition.maxConcurrentReconciles(); i++) {
				this.workers.start(this.workerContext.withQueue(this.queue));
			}
			setState(this.pause.isPaused() ? ControllerState.PAUSED : ControllerState.RUNNING);
		}
	}

	void fail(Throwable cause) {
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
		RateLimitingQueue<Request> stopping;
		List<ReconcileWorker> stopped;
		synchronized (this.lifecycleMonitor) {
			if (!isActive()) {
				if (this.state == ControllerState.WAITING_FOR_LEADERSHIP || this.state == ControllerState.NEW) {
					this.queue.shutDown();
					setState(ControllerState.STOPPED);
				}
				return true;
			}
			setState(ControllerState.STOPPED);
			stopping = this.queue;
			stopped = this.workers.detachAll();
		}
		// drain outside the lifecycle monitor: finishing workers must not queue up behind
		// it
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
	public void resume() {
		synchronized (this.lifecycleMonitor) {
			this.pause.resume();
			if (this.state == ControllerState.PAUSED) {
				setState(ControllerState.RUNNING);
			}
		}
	}

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
					this.workers.start(this.workerContext.withQueue(this.queue));
				}
			}
		}
	}

}
