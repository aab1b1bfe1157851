package dev.kubereconciler.ratelimit;

import java.time.Duration;

/**
 * A {@link RateLimiter} with a primitive, allocation-free path that can also be told not
 * to reserve shared capacity it would only use after a horizon, so that a capped wait
 * leaves no debt behind.
 *
 * <p>
 * Per-item limiters (exponential, fast-slow) ignore the horizon: the failure was real and
 * is always recorded. A token bucket only takes its token when the resulting wait is
 * within the horizon, as Go's {@code rate.Limiter.ReserveN} does with a
 * {@code maxFutureReserve}. Composites pass the horizon to every child.
 *
 * @param <T> the type of item
 */
public interface ReservingRateLimiter<T> extends RateLimiter<T> {

	/**
	 * Record a failure of the item and return its delay, reserving shared capacity only
	 * if the delay is at most {@code maxWaitNanos}.
	 * @param item the item that failed
	 * @param maxWaitNanos the horizon in nanoseconds, not negative;
	 * {@link Long#MAX_VALUE} for none
	 * @return the delay in nanoseconds, never negative and possibly beyond the horizon,
	 * which the caller caps
	 */
	long reserveNanos(T item, long maxWaitNanos);

	/**
	 * Record a failure of the item and return its delay in nanoseconds, like
	 * {@link #when} but without allocating.
	 * @param item the item that failed
	 * @return the delay in nanoseconds, never negative
	 */
	default long whenNanos(T item) {
		return reserveNanos(item, Long.MAX_VALUE);
	}

	/**
	 * Record a failure of the item like {@link #reserveNanos} and say which kind of
	 * limiter decided the delay.
	 * @param item the item that failed
	 * @param maxWaitNanos the horizon in nanoseconds, not negative
	 * @return the delay, possibly beyond the horizon, and its source
	 */
	default Decision decide(T item, long maxWaitNanos) {
		return new Decision(DurationNanos.of(reserveNanos(item, maxWaitNanos)), DelaySource.BACKOFF);
	}

	@Override
	default Decision decide(T item) {
		return decide(item, Long.MAX_VALUE);
	}

	@Override
	default Duration when(T item) {
		return DurationNanos.of(whenNanos(item));
	}

}
