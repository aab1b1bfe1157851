package dev.kubereconciler.reconcile;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of a successful reconcile, with controller-runtime's semantics.
 *
 * <ul>
 * <li>{@link #done()}: the item's backoff is forgotten.</li>
 * <li>{@link #requeue()}: the item is requeued through the controller's rate
 * limiter.</li>
 * <li>{@link #requeueAfter(Duration)}: the item's backoff is forgotten and it is requeued
 * after exactly the given delay, without the rate limiter.</li>
 * </ul>
 *
 * <p>
 * A requeued item keeps the priority it was taken with, unless the result
 * {@link #withPriority(int) sets one}, as controller-runtime's {@code Result.Priority}
 * does.
 */
public final class Result {

	private static final Result DONE = new Result(false, Duration.ZERO);

	private static final Result REQUEUE = new Result(true, Duration.ZERO);

	private final boolean requeue;

	private final Duration requeueAfter;

	private final @Nullable Integer priority;

	private Result(boolean requeue, Duration requeueAfter) {
		this(requeue, requeueAfter, null);
	}

	private Result(boolean requeue, Duration requeueAfter, @Nullable Integer priority) {
		this.requeue = requeue;
		this.requeueAfter = requeueAfter;
		this.priority = priority;
	}

	/**
	 * Reconciled successfully: forget the item's backoff and wait for the next event.
	 * @return the result
	 */
	public static Result done() {
		return DONE;
	}

	/**
	 * Requeue through the controller's rate limiter, as after an error but without
	 * counting one.
	 * @return the result
	 */
	public static Result requeue() {
		return REQUEUE;
	}

	/**
	 * Forget the item's backoff and requeue it after exactly the given delay. A zero
	 * delay means {@link #done()}, as in controller-runtime.
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
	 * Return a copy of this result that requeues the item at the given priority instead
	 * of the one it was taken with. Higher values go first; an ordinary watch event is 0,
	 * the initial list and resyncs are -100. Only a priority queue orders by it.
	 * @param priority the priority
	 * @return the result
	 */
	public Result withPriority(int priority) {
		return new Result(this.requeue, this.requeueAfter, priority);
	}

	/**
	 * Return the priority set by {@link #withPriority(int)}.
	 * @return the priority, or empty to keep the one the item was taken with
	 */
	public OptionalInt getPriority() {
		return (this.priority != null) ? OptionalInt.of(this.priority) : OptionalInt.empty();
	}

	/**
	 * Return whether the item is requeued through the rate limiter.
	 * @return {@code true} for {@link #requeue()}
	 */
	public boolean isRequeue() {
		return this.requeue;
	}

	/**
	 * Return whether the item is done: requeued neither through the rate limiter nor
	 * after a delay, whatever its priority.
	 * @return {@code true} for {@link #done()} and {@code done().withPriority(p)}
	 */
	public boolean isDone() {
		return !this.requeue && this.requeueAfter.isZero();
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
				&& this.requeueAfter.equals(other.requeueAfter) && Objects.equals(this.priority, other.priority);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.requeue, this.requeueAfter, this.priority);
	}

	@Override
	public String toString() {
		String result;
		if (this.requeue) {
			result = "Result.requeue()";
		}
		else {
			result = this.requeueAfter.isZero() ? "Result.done()" : "Result.requeueAfter(" + this.requeueAfter + ")";
		}
		return (this.priority != null) ? result + ".withPriority(" + this.priority + ")" : result;
	}

}
