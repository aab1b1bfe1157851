package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.queue.DelayScheduler;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.queue.RateLimitingQueue;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.Ticker;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.KeyOwnership;

/**
 * Runs one controller: a work queue of {@link Request keys} and the workers that reconcile them,
 * with controller-runtime's outcome handling.
 *
 * <p>Keys are added by the informer event handlers that the {@link ControllerManager} wires.
 * A key is never reconciled by two workers at once. A reconciler that throws, returns
 * {@code null} or runs past its timeout never kills a worker and never wedges its key.
 */
public final class Controller {

	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	private final ControllerDefinition definition;

	private final ResourceType resourceType;

	private final RateLimiter<Request> rateLimiter;

	private final ManagerGate gate;

	private final ControllerListener listener;

	private final QueueObserver<Request> queueObserver;

	private final DelayScheduler scheduler;

	private final Ticker ticker;

	private final Sleeper sleeper;

	private final ThreadFactory threadFactory;

	private final Duration abandonGrace;

	private final ResultHandler results;

	private final List<ReconcileWorker> workers = new CopyOnWriteArrayList<>();

	private final AtomicInteger workerIds = new AtomicInteger();

	private final Object lifecycleMonitor = new Object();

	private final Object pauseMonitor = new Object();

	private volatile RateLimitingQueue<Request> queue;

	private volatile ControllerState state = ControllerState.NEW;

	private volatile boolean paused;

	private volatile Supplier<? extends Iterable<Request>> initialKeys = List::of;

	private volatile KeyOwnership keyOwnership = KeyOwnership.ALL;

	Controller(ControllerDefinition definition, ResourceType resourceType, ManagerGate gate,
			ControllerListener listener, QueueObserver<Request> queueObserver, DelayScheduler scheduler,
			Sleeper sleeper, ThreadFactory threadFactory, Duration abandonGrace) {
		this.definition = definition;
		this.resourceType = resourceType;
		this.rateLimiter = definition.rateLimiter();
		this.gate = gate;
		this.listener = listener;
		this.queueObserver = queueObserver;
		this.scheduler = scheduler;
		this.ticker = scheduler.ticker();
		this.sleeper = sleeper;
		this.threadFactory = threadFactory;
		this.abandonGrace = abandonGrace;
		this.results = new ResultHandler(definition.name(), definition.reconcileTimeout(), listener);
		this.queue = newQueue();
	}

	private RateLimitingQueue<Request> newQueue() {
		return RateLimitingQueue.<Request>builder()
			.name(this.definition.name())
			.rateLimiter(this.rateLimiter)
			.scheduler(this.scheduler)
			.observer(this.queueObserver)
			.build();
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
		return this.rateLimiter;
	}

	/**
	 * Return the current work queue. A new queue replaces it each time the controller restarts
	 * after a stop, for example after leadership was lost and regained.
	 * @return the queue
	 */
	public RateLimitingQueue<Request> queue() {
		return this.queue;
	}

	public ControllerState state() {
		return this.state;
	}

	public int activeWorkers() {
		// counted on demand: a shared counter would be written twice a key by every worker
		int active = 0;
		for (ReconcileWorker worker : this.workers) {
			active += worker.isReconciling() ? 1 : 0;
		}
		return active;
	}

	/**
	 * Add a key from a watch event, without delay.
	 * @param request the key
	 */
	public void enqueue(Request request) {
		this.queue.add(request, AddCause.EVENT);
	}

	void initialKeys(Supplier<? extends Iterable<Request>> initialKeys) {
		this.initialKeys = initialKeys;
	}

	Iterable<Request> cachedKeys() {
		return this.initialKeys.get();
	}

	/**
	 * Return what decides whether this replica reconciles a key: every key, unless the manager
	 * shards keys across replicas.
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
	 * Start the workers. A controller that was stopped starts again on a fresh queue filled with
	 * every key in the cache, so nothing that changed while it was stopped is missed.
	 */
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.state == ControllerState.RUNNING || this.state == ControllerState.PAUSED) {
				return;
			}
			if (this.queue.isShuttingDown()) {
				this.queue = newQueue();
			}
			for (Request request : this.initialKeys.get()) {
				this.queue.add(request, AddCause.EVENT);
			}
			for (int i = 0; i < this.definition.maxConcurrentReconciles(); i++) {
				startWorker();
			}
			setState(this.paused ? ControllerState.PAUSED : ControllerState.RUNNING);
		}
	}

	void fail(Throwable cause) {
		logger.error("Controller '{}' failed to start", name(), cause);
		setState(ControllerState.FAILED);
	}

	/**
	 * Stop taking new keys, let in-flight reconciles finish for up to the given timeout, then
	 * interrupt what still runs.
	 * @param timeout how long in-flight reconciles may take to finish
	 * @return {@code true} if every in-flight reconcile finished in time
	 */
	public boolean stop(Duration timeout) {
		RateLimitingQueue<Request> stopping;
		List<ReconcileWorker> stopped;
		synchronized (this.lifecycleMonitor) {
			if (this.state != ControllerState.RUNNING && this.state != ControllerState.PAUSED) {
				if (this.state == ControllerState.WAITING_FOR_LEADERSHIP || this.state == ControllerState.NEW) {
					this.queue.shutDown();
					setState(ControllerState.STOPPED);
				}
				return true;
			}
			setState(ControllerState.STOPPED);
			stopping = this.queue;
			stopped = List.copyOf(this.workers);
			this.workers.clear();
		}
		// drain outside the lifecycle monitor: finishing workers must not queue up behind it
		wakePaused();
		boolean drained;
		try {
			drained = stopping.shutDownWithDrain(timeout);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			drained = false;
		}
		if (!drained) {
			logger.warn("Controller '{}' did not finish {} in-flight reconcile(s) within {}; interrupting them",
					name(), stopping.inFlight(), timeout);
		}
		stopped.forEach(ReconcileWorker::stop);
		join(stopped);
		return drained;
	}

	/**
	 * Pause the workers: in-flight reconciles finish, no new ones start, and events keep being
	 * queued until {@link #resume()}.
	 */
	public void pause() {
		synchronized (this.lifecycleMonitor) {
			this.paused = true;
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
			this.paused = false;
			if (this.state == ControllerState.PAUSED) {
				setState(ControllerState.RUNNING);
			}
		}
		wakePaused();
	}

	private void wakePaused() {
		synchronized (this.pauseMonitor) {
			this.pauseMonitor.notifyAll();
		}
	}

	public boolean isPaused() {
		return this.paused;
	}

	private void setState(ControllerState state) {
		this.state = state;
		this.listener.stateChanged(name(), state);
	}

	private void startWorker() {
		ReconcileWorker worker = new ReconcileWorker(this, this.queue);
		this.workers.add(worker);
		Thread thread = this.threadFactory.newThread(worker);
		thread.setName("reconcile-" + name() + "-" + this.workerIds.incrementAndGet());
		worker.start(thread);
	}

	private void join(List<ReconcileWorker> workers) {
		// interrupted workers exit at once unless a reconciler ignores interrupts; do not let
		// such a reconciler hold up the shutdown for longer than the abandon grace
		long deadline = this.ticker.read() + this.abandonGrace.toNanos();
		for (ReconcileWorker worker : workers) {
			long remaining = deadline - this.ticker.read();
			try {
				if (remaining > 0) {
					worker.thread().join(Math.max(1, remaining / 1_000_000));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			if (worker.thread().isAlive()) {
				logger.error("Worker thread {} of controller '{}' ignored its interrupt; leaving it behind",
						worker.thread().getName(), name());
			}
		}
	}

	/**
	 * Interrupt reconciles that ran past the reconcile timeout, and abandon those that ignored
	 * the interrupt for longer than the grace period, so that their keys are retried and the
	 * workers replaced. Called periodically by the manager's watchdog.
	 */
	public void checkTimeouts() {
		Duration timeout = this.definition.reconcileTimeout();
		if (timeout.isZero()) {
			return;
		}
		long now = this.ticker.read();
		for (ReconcileWorker worker : this.workers) {
			if (worker.checkTimeout(now, timeout.toNanos(), this.abandonGrace.toNanos())) {
				this.workers.remove(worker);
				synchronized (this.lifecycleMonitor) {
					if (this.state == ControllerState.RUNNING || this.state == ControllerState.PAUSED) {
						startWorker();
					}
				}
			}
		}
	}

	void awaitUnpaused() throws InterruptedException {
		if (!this.paused) {
			return;
		}
		synchronized (this.pauseMonitor) {
			while (this.paused && this.state == ControllerState.PAUSED) {
				this.pauseMonitor.wait();
			}
		}
	}

	void workerStarted(Request request) {
		this.listener.reconcileStarted(name(), request);
	}

	ResultHandler results() {
		return this.results;
	}

	ManagerGate gate() {
		return this.gate;
	}

	ControllerListener listener() {
		return this.listener;
	}

	Ticker ticker() {
		return this.ticker;
	}

	Sleeper sleeper() {
		return this.sleeper;
	}

	/**
	 * Start building a controller that runs on its own, without informers: keys come from
	 * {@link #enqueue}. A {@link ControllerManager} builds its controllers itself.
	 * @param definition the definition
	 * @return a builder
	 */
	public static Builder builder(ControllerDefinition definition) {
		return new Builder(definition);
	}

	/**
	 * Builder for a {@link Controller} that runs on its own.
	 */
	public static final class Builder {

		private final ControllerDefinition definition;

		private DelayScheduler scheduler;

		private ManagerGate gate;

		private ControllerListener listener = ControllerListener.NONE;

		private Sleeper sleeper = Sleeper.system();

		private ThreadFactory threadFactory = ControllerManager.Builder.defaultThreadFactory();

		private Duration abandonGrace = ControllerManager.DEFAULT_ABANDON_GRACE;

		private Builder(ControllerDefinition definition) {
			this.definition = Objects.requireNonNull(definition, "definition must not be null");
		}

		/**
		 * Set the scheduler of delayed adds, and with it the ticker; required.
		 * @param scheduler the scheduler
		 * @return this builder
		 */
		public Builder scheduler(DelayScheduler scheduler) {
			this.scheduler = scheduler;
			return this;
		}

		/**
		 * Pass every reconcile through a manager gate; none by default.
		 * @param gate the gate
		 * @return this builder
		 */
		public Builder gate(ManagerGate gate) {
			this.gate = gate;
			return this;
		}

		/**
		 * Report what the controller does; nothing by default.
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder listener(ControllerListener listener) {
			this.listener = Objects.requireNonNull(listener, "listener must not be null");
			return this;
		}

		/**
		 * Wait out manager gate delays with this sleeper; the system's by default.
		 * @param sleeper the sleeper
		 * @return this builder
		 */
		public Builder sleeper(Sleeper sleeper) {
			this.sleeper = Objects.requireNonNull(sleeper, "sleeper must not be null");
			return this;
		}

		/**
		 * Create worker threads with this factory; daemon threads by default.
		 * @param threadFactory the factory
		 * @return this builder
		 */
		public Builder threadFactory(ThreadFactory threadFactory) {
			this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory must not be null");
			return this;
		}

		/**
		 * Build the controller; start it with {@link Controller#start()}.
		 * @return the controller
		 */
		public Controller build() {
			if (this.scheduler == null) {
				throw new IllegalStateException("A delay scheduler is required");
			}
			QueueObserver<Request> observer = this.listener.queueObserver(this.definition.name());
			return new Controller(this.definition, ResourceType.of(this.definition.watches()), this.gate,
					this.listener, (observer != null) ? observer : QueueObserver.none(), this.scheduler, this.sleeper,
					this.threadFactory, this.abandonGrace);
		}

	}

}
