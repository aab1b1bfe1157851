package dev.kubereconciler.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * The outcome of a successful reconcile, with controller-runtime's semantics.
 *
 * <ul>
 * <li>{@link #done()}: the item's backoff is forgotten.</li>
 * <li>{@link #requeue()}: the item is requeued through the controller's rate limiter.</li>
 * <li>{@link #requeueAfter(Duration)}: the item's backoff is forgotten and it is requeued after
 * exactly the given delay, without the rate limiter.</li>
 * </ul>
 */
public final class Result {

	private static final Result DONE = new Result(false, Duration.ZERO);

	private static final Result REQUEUE = new Result(true, Duration.ZERO);

	private final boolean requeue;

	private final Duration requeueAfter;

	private Result(boolean requeue, Duration requeueAfter) {
		this.requeue = requeue;
		this.requeueAfter = requeueAfter;
	}

	/**
	 * Reconciled successfully: forget the item's backoff and wait for the next event.
	 * @return the result
	 */
	public static Result done() {
		return DONE;
	}

	/**
	 * Requeue through the controller's rate limiter, as after an error but without counting one.
	 * @return the result
	 */
	public static Result requeue() {
		return REQUEUE;
	}

	/**
	 * Forget the item's backoff and requeue it after exactly the given delay. A zero delay
	 * means {@link #done()}, as in controller-runtime.
	 * @param delay the delay, not negative
	 * @return the result
	 */
	public static Result requeueAfter(Duration delay) {
		Objects.requireNonNull(delay, "delay must not be null");
		if (delay.isNegative()) {
			throw new IllegalArgumentException("requeueAfter delay must not be negative, was " + delay);
		}
		return delay.isZero() ? DONE : new Result(false, delay);
	}

	/**
	 * Return whether the item is requeued through the rate limiter.
	 * @return {@code true} for {@link #requeue()}
	 */
	public boolean isRequeue() {
		return this.requeue;
	}

	/**
	 * Return the fixed delay before the item is requeued, zero when there is none.
	 * @return the delay
	 */
	public Duration getRequeueAfter() {
		return this.requeueAfter;
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof Result other) && this.requeue == other.requeue
				&& this.requeueAfter.equals(other.requeueAfter);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.requeue, this.requeueAfter);
	}

	@Override
	public String toString() {
		if (this.requeue) {
			return "Result.requeue()";
		}
		return this.requeueAfter.isZero() ? "Result.done()" : "Result.requeueAfter(" + this.requeueAfter + ")";
	}

}
