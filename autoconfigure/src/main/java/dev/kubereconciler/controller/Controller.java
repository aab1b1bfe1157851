package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
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
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.ratelimit.BucketReservation;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiter.Decision;
import dev.kubereconciler.ratelimit.Ticker;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;

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

	private final List<Worker> workers = new CopyOnWriteArrayList<>();

	private final AtomicInteger activeWorkers = new AtomicInteger();

	private final AtomicInteger workerIds = new AtomicInteger();

	private final Object lifecycleMonitor = new Object();

	private volatile RateLimitingQueue<Request> queue;

	private volatile ControllerState state = ControllerState.NEW;

	private volatile boolean paused;

	private volatile Supplier<? extends Iterable<Request>> initialKeys = List::of;

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
		return this.activeWorkers.get();
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

	void waitForLeadership() {
		setState(ControllerState.WAITING_FOR_LEADERSHIP);
	}

	/**
	 * Start the workers. A controller that was stopped starts again on a fresh queue filled with
	 * every key in the cache, so nothing that changed while it was stopped is missed.
	 */
	void start() {
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
	boolean stop(Duration timeout) {
		synchronized (this.lifecycleMonitor) {
			if (this.state != ControllerState.RUNNING && this.state != ControllerState.PAUSED) {
				if (this.state == ControllerState.WAITING_FOR_LEADERSHIP || this.state == ControllerState.NEW) {
					this.queue.shutDown();
					setState(ControllerState.STOPPED);
				}
				return true;
			}
			setState(ControllerState.STOPPED);
			boolean drained;
			try {
				drained = this.queue.shutDownWithDrain(timeout);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				drained = false;
			}
			if (!drained) {
				logger.warn("Controller '{}' did not finish {} in-flight reconcile(s) within {}; interrupting them",
						name(), this.queue.inFlight(), timeout);
			}
			for (Worker worker : this.workers) {
				worker.stop();
			}
			this.workers.clear();
			this.lifecycleMonitor.notifyAll();
			return drained;
		}
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
			this.lifecycleMonitor.notifyAll();
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
		Worker worker = new Worker();
		this.workers.add(worker);
		worker.thread = this.threadFactory.newThread(worker);
		worker.thread.setName("reconcile-" + name() + "-" + worker.id);
		worker.thread.start();
	}

	/**
	 * Interrupt reconciles that ran past the reconcile timeout, and abandon those that ignored
	 * the interrupt for longer than the grace period, so that their keys are retried and the
	 * workers replaced. Called periodically by the manager's watchdog.
	 */
	void checkTimeouts() {
		Duration timeout = this.definition.reconcileTimeout();
		if (timeout.isZero()) {
			return;
		}
		long now = this.ticker.read();
		for (Worker worker : this.workers) {
			worker.checkTimeout(now, timeout.toNanos(), this.abandonGrace.toNanos());
		}
	}

	private void awaitUnpaused() throws InterruptedException {
		synchronized (this.lifecycleMonitor) {
			while (this.paused && this.state == ControllerState.PAUSED) {
				this.lifecycleMonitor.wait();
			}
		}
	}

	/**
	 * Pass the manager gate for a key, waiting out the reservation's delay.
	 * @return {@code true} to reconcile now, {@code false} if the key was handed back to the queue
	 */
	private boolean passGate(RateLimitingQueue<Request> queue, Request request, AddCause cause)
			throws InterruptedException {
		if (this.gate == null || !this.gate.appliesTo(cause)) {
			return true;
		}
		BucketReservation reservation = this.gate.reserve();
		long delay = reservation.delayNanos();
		if (delay <= 0) {
			this.gate.admit();
			return true;
		}
		if (!this.gate.withinMaxWait(delay)) {
			reservation.cancel();
			queue.addAfter(request, Duration.ofNanos(delay), cause);
			this.listener.limiterDelayed(name(), request, cause, DelaySource.MANAGER, Duration.ofNanos(delay));
			return false;
		}
		this.listener.limiterDelayed(name(), request, cause, DelaySource.MANAGER, Duration.ofNanos(delay));
		try {
			this.sleeper.sleep(delay);
			this.gate.admit();
			return true;
		}
		catch (InterruptedException ex) {
			reservation.cancel();
			queue.add(request, cause);
			throw ex;
		}
	}

	private void handle(RateLimitingQueue<Request> queue, Request request, AddCause cause, ReconcileOutcome outcome,
			Result result, Throwable error, long nanos) {
		switch (outcome) {
			case SUCCESS -> queue.forget(request);
			case REQUEUE_AFTER -> {
				queue.forget(request);
				queue.addAfter(request, result.getRequeueAfter(), AddCause.REQUEUE_AFTER);
			}
			case TERMINAL_ERROR -> {
				queue.forget(request);
				logger.error("Reconcile of {} by controller '{}' failed terminally; not requeued", request, name(),
						error);
			}
			default -> {
				Decision decision = queue.addRateLimited(request);
				logFailure(request, outcome, error, decision.delay());
				this.listener.limiterDelayed(name(), request, AddCause.RETRY, decision.source(), decision.delay());
			}
		}
		this.listener.reconcileFinished(name(), request, outcome, nanos, error);
	}

	private void logFailure(Request request, ReconcileOutcome outcome, Throwable error, Duration delay) {
		if (outcome == ReconcileOutcome.REQUEUE) {
			logger.debug("Controller '{}' requeued {} after {}", name(), request, delay);
		}
		else if (outcome == ReconcileOutcome.TIMEOUT) {
			logger.warn("Reconcile of {} by controller '{}' ran past its timeout of {}; retrying in {}", request,
					name(), this.definition.reconcileTimeout(), delay);
		}
		else if (error instanceof NullResultException) {
			logger.error("Reconciler of controller '{}' returned null for {}; treated as an error, retrying in {}. "
					+ "Return Result.done() instead", name(), request, delay);
		}
		else {
			logger.warn("Reconcile of {} by controller '{}' failed; retrying in {}", request, name(), delay, error);
		}
	}

	static ReconcileOutcome classify(Result result, Throwable error) {
		if (error instanceof TerminalReconcileException) {
			return ReconcileOutcome.TERMINAL_ERROR;
		}
		if (error instanceof Error) {
			return ReconcileOutcome.PANIC;
		}
		if (error != null) {
			return ReconcileOutcome.ERROR;
		}
		if (result.isRequeue()) {
			return ReconcileOutcome.REQUEUE;
		}
		return result.getRequeueAfter().isZero() ? ReconcileOutcome.SUCCESS : ReconcileOutcome.REQUEUE_AFTER;
	}

	/**
	 * Thrown into the outcome handling when a reconciler returns {@code null}.
	 */
	static final class NullResultException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		NullResultException() {
			super("Reconciler returned null; return Result.done() instead");
		}

	}

	private static final int IDLE = 0;

	private static final int RUNNING = 1;

	private static final int TIMED_OUT = 2;

	private static final int ABANDONED = 3;

	/**
	 * One worker thread. Its state moves IDLE → RUNNING → IDLE per reconcile; the watchdog
	 * moves RUNNING → TIMED_OUT (and interrupts) and TIMED_OUT → ABANDONED (and takes over the
	 * key). Transitions happen under the worker's monitor so an interrupt meant for one reconcile
	 * never leaks into the next.
	 */
	private final class Worker implements Runnable {

		final int id = workerIds.incrementAndGet();

		volatile Thread thread;

		private int state = IDLE;

		private long startedAt;

		private long timedOutAt;

		private Request current;

		private RateLimitingQueue<Request> currentQueue;

		private volatile boolean stopped;

		@Override
		public void run() {
			RateLimitingQueue<Request> queue = Controller.this.queue;
			while (!this.stopped) {
				try {
					awaitUnpaused();
					Optional<Request> next = queue.get();
					if (next.isEmpty()) {
						return;
					}
					if (!process(queue, next.get())) {
						return;
					}
				}
				catch (InterruptedException ex) {
					if (this.stopped || queue.isShuttingDown()) {
						return;
					}
				}
			}
		}

		/**
		 * Reconcile one key.
		 * @return {@code false} if this worker was abandoned and must exit
		 */
		private boolean process(RateLimitingQueue<Request> queue, Request request) throws InterruptedException {
			AddCause cause = queue.cause(request);
			if (Controller.this.paused) {
				// paused while this worker waited for a key: hand it back, it runs after resume
				queue.add(request, cause);
				queue.done(request);
				return true;
			}
			try {
				if (!passGate(queue, request, cause)) {
					// handed back to the queue with a delay; release it so that the delayed add
					// is not deferred behind this worker forever
					queue.done(request);
					return true;
				}
			}
			catch (InterruptedException ex) {
				queue.done(request);
				throw ex;
			}
			synchronized (this) {
				this.state = RUNNING;
				this.startedAt = Controller.this.ticker.read();
				this.current = request;
				this.currentQueue = queue;
			}
			Controller.this.activeWorkers.incrementAndGet();
			Controller.this.listener.reconcileStarted(name(), request);
			Result result = null;
			Throwable error = null;
			long started = Controller.this.ticker.read();
			try {
				result = Controller.this.definition.reconciler().reconcile(request);
				if (result == null) {
					error = new NullResultException();
				}
			}
			catch (Throwable ex) {
				error = ex;
			}
			long nanos = Controller.this.ticker.read() - started;
			int ended;
			synchronized (this) {
				ended = this.state;
				if (ended != ABANDONED) {
					this.state = IDLE;
					this.current = null;
					this.currentQueue = null;
				}
				if (ended != RUNNING) {
					Thread.interrupted();
				}
			}
			if (ended != ABANDONED) {
				Controller.this.activeWorkers.decrementAndGet();
			}
			else {
				logger.warn("Abandoned reconcile of {} by controller '{}' returned after {} ms; its key was already "
						+ "retried", request, name(), nanos / 1_000_000);
				return false;
			}
			ReconcileOutcome outcome = (ended == TIMED_OUT) ? ReconcileOutcome.TIMEOUT : classify(result, error);
			try {
				handle(queue, request, cause, outcome, result, error, nanos);
			}
			finally {
				queue.done(request);
			}
			return true;
		}

		void checkTimeout(long now, long timeoutNanos, long graceNanos) {
			Request abandoned = null;
			RateLimitingQueue<Request> abandonedQueue = null;
			long ran = 0;
			synchronized (this) {
				if (this.state == RUNNING && now - this.startedAt >= timeoutNanos) {
					this.state = TIMED_OUT;
					this.timedOutAt = now;
					this.thread.interrupt();
				}
				else if (this.state == TIMED_OUT && now - this.timedOutAt >= graceNanos) {
					this.state = ABANDONED;
					abandoned = this.current;
					abandonedQueue = this.currentQueue;
					ran = now - this.startedAt;
				}
			}
			if (abandoned != null) {
				logger.error("Reconcile of {} by controller '{}' ignored the interrupt after its timeout; abandoning "
						+ "thread {} and starting a new worker", abandoned, name(), this.thread.getName());
				Controller.this.workers.remove(this);
				Controller.this.activeWorkers.decrementAndGet();
				try {
					handle(abandonedQueue, abandoned, AddCause.RETRY, ReconcileOutcome.TIMEOUT, null, null, ran);
				}
				finally {
					abandonedQueue.done(abandoned);
				}
				if (!abandonedQueue.isShuttingDown()) {
					startWorker();
				}
			}
		}

		void stop() {
			this.stopped = true;
			Thread thread = this.thread;
			if (thread != null) {
				thread.interrupt();
			}
		}

	}

}
