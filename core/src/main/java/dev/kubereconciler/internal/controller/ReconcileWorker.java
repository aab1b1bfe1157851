package dev.kubereconciler.internal.controller;

import java.util.Objects;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.internal.context.CauseAwareReconciler;
import dev.kubereconciler.internal.queue.WorkerQueue.Taken;
import dev.kubereconciler.internal.queue.WorkerQueue;
import dev.kubereconciler.observation.ReconcileObservations;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sharding.KeyOwnership;

/**
 * One worker thread of a {@link WorkQueueController}: takes a key, passes the manager
 * gate, reconciles, and hands the outcome to the {@link ResultHandler}. It sees its
 * controller only through a {@link WorkerContext}.
 *
 * <p>
 * Per reconcile, its state moves IDLE → RUNNING → IDLE. The manager's watchdog moves
 * RUNNING → TIMED_OUT (and interrupts) and TIMED_OUT → ABANDONED (and retries the key and
 * replaces the worker). Transitions happen under the worker's monitor, so an interrupt
 * meant for one reconcile never leaks into the next.
 */
final class ReconcileWorker implements Runnable {

	private static final Logger logger = LoggerFactory.getLogger(WorkQueueController.class);

	// at debug, when each reconcile starts and ends: a journal that shows which replica
	// held which key when. A name in lower case, so that an environment variable
	// (LOGGING_LEVEL_DEV_KUBERECONCILER_RECONCILES=debug) can turn it on
	private static final Logger journal = LoggerFactory.getLogger("dev.kubereconciler.reconciles");

	private static final int IDLE = 0;

	private static final int RUNNING = 1;

	private static final int TIMED_OUT = 2;

	private static final int ABANDONED = 3;

	private final WorkerContext context;

	private final WorkerQueue<Request> queue;

	private final GatePassage gatePassage;

	private final KeyHandback handback;

	private volatile @Nullable Thread thread;

	private volatile boolean stopped;

	// touched by this worker's own thread only
	private long endedAt;

	// guarded by this
	private int state = IDLE;

	private long startedAt;

	private long timedOutAt;

	private @Nullable Request current;

	private int currentPriority;

	ReconcileWorker(WorkerContext context) {
		this.context = context;
		this.queue = WorkerQueue.of(context.queue());
		this.gatePassage = new GatePassage(context);
		this.handback = new KeyHandback(context, this.queue);
	}

	void start(Thread thread) {
		this.thread = thread;
		thread.start();
	}

	Thread thread() {
		return Objects.requireNonNull(this.thread, "worker not started");
	}

	@Override
	public void run() {
		// a key this worker finished, marked done together with taking the next one,
		// and the clock reading that ended it, which also stands for when the next one
		// is taken
		Taken<Request> finished = null;
		long finishedAt = 0;
		try {
			while (!this.stopped) {
				try {
					if (finished != null && this.context.pause().isPaused()) {
						this.queue.done(finished.item());
						finished = null;
					}
					if (finished == null) {
						this.context.pause().awaitUnpaused();
						finishedAt = this.context.clock().read();
					}
					// done before it waits, even if the wait is interrupted
					Taken<Request> done = finished;
					finished = null;
					Taken<Request> taken = this.queue.next(done, finishedAt);
					if (taken == null) {
						return;
					}
					WorkerStep step = processSafely(taken);
					if (step == WorkerStep.ABANDONED) {
						return;
					}
					if (step == WorkerStep.FINISHED) {
						finished = taken;
						finishedAt = this.endedAt;
					}
				}
				catch (InterruptedException ex) {
					if (this.stopped || this.queue.isShuttingDown()) {
						return;
					}
				}
			}
		}
		finally {
			if (finished != null) {
				this.queue.done(finished.item());
			}
		}
	}

	/**
	 * Reconcile one key, if this replica may and the manager gate lets it through.
	 * @return what became of the key
	 */
	private WorkerStep process(Taken<Request> taken) throws InterruptedException {
		Request request = taken.item();
		if (this.context.pause().isPaused()) {
			// paused while this worker waited for a key: hand it back, it runs
			// after resume
			this.queue.add(request, taken.cause(), taken.priority());
			this.queue.done(request);
			return WorkerStep.RELEASED;
		}
		KeyOwnership ownership = this.context.ownership().get();
		if (!ownership.mayDispatch(request)) {
			this.handback.drop(ownership, taken);
			return WorkerStep.RELEASED;
		}
		OptionalLong started = passGate(taken);
		if (started.isEmpty()) {
			return WorkerStep.RELEASED;
		}
		KeyOwnership.Permit permit = ownership.tryDispatch(request);
		if (permit == null) {
			this.handback.drop(ownership, taken);
			return WorkerStep.RELEASED;
		}
		return reconcile(taken, permit, started.getAsLong());
	}

	/**
	 * Pass the manager gate.
	 * @return the clock reading the reconcile starts at, or empty if the key went back to
	 * the queue
	 */
	private OptionalLong passGate(Taken<Request> taken) throws InterruptedException {
		Request request = taken.item();
		try {
			GatePassage.Passage passage = this.gatePassage.pass(request, taken.cause(), taken.priority(),
					() -> this.stopped);
			if (passage == GatePassage.Passage.HANDED_BACK) {
				// handed back to the queue with a delay, or the queue shuts down; release
				// it so that a delayed add is not deferred behind this worker forever
				this.queue.done(request);
				return OptionalLong.empty();
			}
			return OptionalLong
				.of((passage == GatePassage.Passage.AFTER_WAIT) ? this.context.clock().read() : taken.takenAt());
		}
		catch (InterruptedException ex) {
			this.queue.done(request);
			throw ex;
		}
	}

	/**
	 * Run the reconciler on a key, observed if a registry listens; hand its outcome on.
	 * @return what became of the key
	 */
	private WorkerStep reconcile(Taken<Request> taken, KeyOwnership.Permit permit, long started) {
		ReconcileObservations observations = this.context.observations();
		if (observations == null || observations.isOff()) {
			return reconcile(taken, permit, started, null);
		}
		// the outcome's meters are recorded in scope: a bucket's exemplar is this trace
		ReconcileObservations.Started observed = observations.start(this.context.controller(), taken.item(),
				taken.cause());
		try {
			return reconcile(taken, permit, started, observed);
		}
		finally {
			observed.stop();
		}
	}

	private WorkerStep reconcile(Taken<Request> taken, KeyOwnership.Permit permit, long started,
			ReconcileObservations.@Nullable Started observed) {
		Request request = taken.item();
		synchronized (this) {
			this.state = RUNNING;
			this.startedAt = started;
			this.current = request;
			this.currentPriority = taken.priority();
		}
		this.context.listener().reconcileStarted(this.context.controller(), request);
		journal.debug("Reconcile of {} by controller '{}' started", request, this.context.controller());
		Result result = null;
		Throwable error = null;
		try {
			ReconcileFunction reconciler = this.context.reconciler();
			result = (reconciler instanceof CauseAwareReconciler aware) ? aware.reconcile(request, taken.cause())
					: reconciler.reconcile(request);
			if (result == null) {
				error = new ResultHandler.NullResultException();
			}
		}
		catch (Throwable ex) {
			error = ex;
		}
		permit.close();
		journal.debug("Reconcile of {} by controller '{}' ended", request, this.context.controller());
		long ended = this.context.clock().read();
		long nanos = ended - started;
		int finalState = endRun();
		if (finalState == ABANDONED) {
			if (observed != null) {
				observed.ended(ReconcileOutcome.TIMEOUT, error);
			}
			logger.warn("Abandoned reconcile of {} by controller '{}' returned after {} ms; its key was already "
					+ "retried", request, this.context.controller(), nanos / 1_000_000);
			return WorkerStep.ABANDONED;
		}
		// a reconcile that returns after its timeout still decides what becomes of its
		// key, as in controller-runtime; the timeout is only counted
		ReconcileOutcome outcome = ResultHandler.classify(result, error);
		if (observed != null) {
			observed.ended((finalState == TIMED_OUT) ? ReconcileOutcome.TIMEOUT : outcome, error);
		}
		this.context.results()
			.handle(this.queue.queue(), request, taken.priority(), outcome, finalState == TIMED_OUT, result, error,
					nanos);
		this.endedAt = ended;
		return WorkerStep.FINISHED;
	}

	/**
	 * End the run of the reconciler, unless the watchdog abandoned it.
	 * @return the state the run ended in: running, timed out or abandoned
	 */
	private synchronized int endRun() {
		int finalState = this.state;
		if (finalState != ABANDONED) {
			this.state = IDLE;
			this.current = null;
		}
		if (finalState != RUNNING) {
			// the watchdog's interrupt belongs to this reconcile, not to the next wait
			Thread.interrupted();
		}
		return finalState;
	}

	/**
	 * Reconcile one key; an exception that escapes the reconcile's own handling, from a
	 * listener or a limiter for example, must not end this worker or leave its key held.
	 */
	private WorkerStep processSafely(Taken<Request> taken) throws InterruptedException {
		try {
			return process(taken);
		}
		catch (RuntimeException | Error ex) {
			if (ex instanceof VirtualMachineError error) {
				throw error;
			}
			Request request = taken.item();
			synchronized (this) {
				if (this.state == ABANDONED) {
					return WorkerStep.ABANDONED;
				}
				this.state = IDLE;
				this.current = null;
				Thread.interrupted();
			}
			logger.error("Worker of controller '{}' failed unexpectedly on {}; requeuing it", this.context.controller(),
					request, ex);
			this.handback.requeueAfterFailure(taken);
			return WorkerStep.RELEASED;
		}
	}

	/**
	 * Interrupt a reconcile that ran past the timeout; abandon one that ignored the
	 * interrupt for longer than the grace period, retrying its key.
	 * @param now the ticker's reading
	 * @param timeoutNanos the reconcile timeout
	 * @param graceNanos how long an interrupted reconcile may take to return
	 * @return {@code true} if this worker was abandoned and needs replacing
	 */
	boolean checkTimeout(long now, long timeoutNanos, long graceNanos) {
		Request abandoned = null;
		int priority = Priorities.NORMAL;
		long ran = 0;
		synchronized (this) {
			if (this.state == RUNNING && now - this.startedAt >= timeoutNanos) {
				this.state = TIMED_OUT;
				this.timedOutAt = now;
				thread().interrupt();
			}
			else if (this.state == TIMED_OUT && now - this.timedOutAt >= graceNanos) {
				this.state = ABANDONED;
				abandoned = this.current;
				priority = this.currentPriority;
				ran = now - this.startedAt;
			}
		}
		if (abandoned == null) {
			return false;
		}
		this.handback.retryAbandoned(abandoned, priority, ran, thread().getName());
		return true;
	}

	/**
	 * Return whether this worker runs a reconcile now, timed out or not.
	 * @return whether it is reconciling
	 */
	synchronized boolean isReconciling() {
		return this.state == RUNNING || this.state == TIMED_OUT;
	}

	void stop() {
		this.stopped = true;
		Thread thread = this.thread;
		if (thread != null) {
			thread.interrupt();
		}
	}

}
