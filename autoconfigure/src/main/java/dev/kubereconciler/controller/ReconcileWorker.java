package dev.kubereconciler.controller;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.queue.RateLimitingQueue;
import dev.kubereconciler.queue.RateLimitingQueue.Taken;
import dev.kubereconciler.ratelimit.BucketReservation;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sharding.KeyOwnership;

/**
 * One worker thread of a {@link Controller}: takes a key, passes the manager gate, reconciles,
 * and hands the outcome to the {@link ResultHandler}.
 *
 * <p>Per reconcile, its state moves IDLE → RUNNING → IDLE. The manager's watchdog moves
 * RUNNING → TIMED_OUT (and interrupts) and TIMED_OUT → ABANDONED (and retries the key and
 * replaces the worker). Transitions happen under the worker's monitor, so an interrupt meant
 * for one reconcile never leaks into the next.
 */
final class ReconcileWorker implements Runnable {

	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	private static final int IDLE = 0;

	private static final int RUNNING = 1;

	private static final int TIMED_OUT = 2;

	private static final int ABANDONED = 3;

	private final Controller controller;

	private final RateLimitingQueue<Request> queue;

	private volatile Thread thread;

	private volatile boolean stopped;

	// touched by this worker's own thread only
	private long endedAt;

	private boolean gateWaited;

	// guarded by this
	private int state = IDLE;

	private long startedAt;

	private long timedOutAt;

	private Request current;

	ReconcileWorker(Controller controller, RateLimitingQueue<Request> queue) {
		this.controller = controller;
		this.queue = queue;
	}

	void start(Thread thread) {
		this.thread = thread;
		thread.start();
	}

	Thread thread() {
		return this.thread;
	}

	@Override
	public void run() {
		// a key this worker finished, marked done together with taking the next one, and the
		// clock reading that ended it, which also stands for when the next one is taken
		Request finished = null;
		long finishedAt = 0;
		try {
			while (!this.stopped) {
				try {
					if (finished != null && this.controller.isPaused()) {
						this.queue.done(finished);
						finished = null;
					}
					if (finished == null) {
						this.controller.awaitUnpaused();
						finishedAt = this.controller.ticker().read();
					}
					// done before it waits, even if the wait is interrupted
					Request done = finished;
					finished = null;
					Taken<Request> taken = this.queue.next(done, finishedAt);
					if (taken == null) {
						return;
					}
					Step step = process(taken);
					if (step == Step.ABANDONED) {
						return;
					}
					if (step == Step.FINISHED) {
						finished = taken.item();
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
				this.queue.done(finished);
			}
		}
	}

	/**
	 * Reconcile one key.
	 * @return what became of the key
	 */
	private Step process(Taken<Request> taken) throws InterruptedException {
		Request request = taken.item();
		if (this.controller.isPaused()) {
			// paused while this worker waited for a key: hand it back, it runs after resume
			this.queue.add(request, taken.cause());
			this.queue.done(request);
			return Step.RELEASED;
		}
		KeyOwnership ownership = this.controller.keyOwnership();
		if (!ownership.mayDispatch(request)) {
			return drop(ownership, taken);
		}
		long started = taken.takenAt();
		try {
			if (!passGate(request, taken.cause())) {
				// handed back to the queue with a delay; release it so that the delayed add is
				// not deferred behind this worker forever
				this.queue.done(request);
				return Step.RELEASED;
			}
			if (this.gateWaited) {
				started = this.controller.ticker().read();
			}
		}
		catch (InterruptedException ex) {
			this.queue.done(request);
			throw ex;
		}
		KeyOwnership.Permit permit = ownership.tryDispatch(request);
		if (permit == null) {
			return drop(ownership, taken);
		}
		synchronized (this) {
			this.state = RUNNING;
			this.startedAt = started;
			this.current = request;
		}
		this.controller.workerStarted(request);
		Result result = null;
		Throwable error = null;
		try {
			result = this.controller.definition().reconciler().reconcile(request);
			if (result == null) {
				error = new ResultHandler.NullResultException();
			}
		}
		catch (Throwable ex) {
			error = ex;
		}
		permit.close();
		long ended = this.controller.ticker().read();
		long nanos = ended - started;
		int finalState;
		synchronized (this) {
			finalState = this.state;
			if (finalState != ABANDONED) {
				this.state = IDLE;
				this.current = null;
			}
			if (finalState != RUNNING) {
				// the watchdog's interrupt belongs to this reconcile, not to the next wait
				Thread.interrupted();
			}
		}
		if (finalState == ABANDONED) {
			logger.warn("Abandoned reconcile of {} by controller '{}' returned after {} ms; its key was already "
					+ "retried", request, this.controller.name(), nanos / 1_000_000);
			return Step.ABANDONED;
		}
		ReconcileOutcome outcome = (finalState == TIMED_OUT) ? ReconcileOutcome.TIMEOUT
				: ResultHandler.classify(result, error);
		try {
			this.controller.results().handle(this.queue, request, outcome, result, error, nanos);
		}
		catch (RuntimeException ex) {
			this.queue.done(request);
			throw ex;
		}
		this.endedAt = ended;
		return Step.FINISHED;
	}

	/**
	 * Drop a key that another replica reconciles, without a reconcile (it is enqueued again if
	 * this replica acquires its partition), or put it off while this replica's Lease is stale.
	 */
	private Step drop(KeyOwnership ownership, Taken<Request> taken) {
		Duration deferral = ownership.deferral(taken.item());
		if (deferral != null) {
			this.queue.addAfter(taken.item(), deferral, taken.cause());
		}
		else {
			this.queue.forget(taken.item());
		}
		this.queue.done(taken.item());
		return Step.RELEASED;
	}

	/**
	 * Pass the manager gate for a key, waiting out the reservation's delay on this thread, so
	 * that the wait is limiter delay and not queue time.
	 * @return {@code true} to reconcile now, {@code false} if the key was handed back to the
	 * queue because it would wait longer than the gate's max wait
	 */
	private boolean passGate(Request request, AddCause cause) throws InterruptedException {
		this.gateWaited = false;
		ManagerGate gate = this.controller.gate();
		if (gate == null) {
			return true;
		}
		if (gate.isOpen()) {
			gate.admit();
			return true;
		}
		if (!gate.appliesTo(cause)) {
			return true;
		}
		BucketReservation reservation = gate.reserve();
		long delay = reservation.delayNanos();
		if (delay <= 0) {
			gate.admit();
			return true;
		}
		ControllerListener listener = this.controller.listener();
		if (!gate.withinMaxWait(delay)) {
			reservation.cancel();
			this.queue.addAfter(request, Duration.ofNanos(delay), cause);
			listener.limiterDelayed(this.controller.name(), request, cause, DelaySource.MANAGER,
					Duration.ofNanos(delay));
			return false;
		}
		listener.limiterDelayed(this.controller.name(), request, cause, DelaySource.MANAGER, Duration.ofNanos(delay));
		try {
			this.controller.sleeper().sleep(delay);
			gate.admit();
			// the gate's wait is limiter delay, not work on the key
			this.queue.startWork(request);
			this.gateWaited = true;
			return true;
		}
		catch (InterruptedException ex) {
			reservation.cancel();
			this.queue.add(request, cause);
			throw ex;
		}
	}

	/**
	 * Interrupt a reconcile that ran past the timeout; abandon one that ignored the interrupt
	 * for longer than the grace period, retrying its key.
	 * @param now the ticker's reading
	 * @param timeoutNanos the reconcile timeout
	 * @param graceNanos how long an interrupted reconcile may take to return
	 * @return {@code true} if this worker was abandoned and needs replacing
	 */
	boolean checkTimeout(long now, long timeoutNanos, long graceNanos) {
		Request abandoned = null;
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
				ran = now - this.startedAt;
			}
		}
		if (abandoned == null) {
			return false;
		}
		// A hostile reconciler keeps this thread; its key must not stay wedged behind it, so it
		// is retried now at the cost of possibly overlapping with the abandoned call.
		logger.error("Reconcile of {} by controller '{}' ignored the interrupt after its timeout; abandoning "
				+ "thread {} and starting a new worker", abandoned, this.controller.name(), this.thread.getName());
		try {
			this.controller.results().handle(this.queue, abandoned, ReconcileOutcome.TIMEOUT, null, null, ran);
		}
		finally {
			this.queue.done(abandoned);
		}
		return true;
	}

	/**
	 * What became of a key a worker took.
	 */
	private enum Step {

		/** Reconciled and handled; the worker still holds it until it marks it done. */
		FINISHED,

		/** Already given back to the queue. */
		RELEASED,

		/** The watchdog retried it and replaced this worker, which must exit. */
		ABANDONED

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
