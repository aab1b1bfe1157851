package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;

/**
 * Caps the delay of another limiter at {@code maxWait}, like client-go's
 * {@code WithMaxWait}, and, unlike it, leaves no debt behind for the capped part.
 *
 * <p>
 * client-go keeps the child's full reservation even though nobody waits for it, so a
 * token bucket's debt grows without bound during a storm and every later item pays for
 * it. Here a {@link ReservingRateLimiter} child is told the horizon: a token bucket
 * (alone or inside a composite) takes its token only when the wait for it is within
 * {@code maxWait}, which is Go's {@code Reservation.Cancel} of the unused reservation
 * done atomically, so concurrent callers cannot strand debt either. The debt of a bucket
 * of {@code qps} therefore stays within {@code qps · maxWait} tokens. Other children are
 * capped as in client-go.
 *
 * @param <T> the type of item
 */
final class MaxWaitRateLimiter<T> implements ReservingRateLimiter<T> {

	private final RateLimiter<T> limiter;

	private final Duration maxWait;

	private final long maxWaitNanos;

	/**
	 * Create a limiter.
	 * @param limiter the limiter to cap
	 * @param maxWait the longest delay, not negative
	 */
	MaxWaitRateLimiter(RateLimiter<T> limiter, Duration maxWait) {
		if (limiter == null) {
			throw new IllegalArgumentException("limiter must not be null");
		}
		if (maxWait == null || maxWait.isNegative()) {
			throw new IllegalArgumentException("maxWait must not be negative but was " + maxWait);
		}
		this.limiter = limiter;
		this.maxWait = maxWait;
		this.maxWaitNanos = DurationNanos.toNanos(maxWait);
	}

	@Override
	public RateLimiter<T> forScope(String scope) {
		RateLimiter<T> scoped = this.limiter.forScope(scope);
		return (scoped == this.limiter) ? this : new MaxWaitRateLimiter<>(scoped, this.maxWait);
	}

	@Override
	public List<RateLimiter<T>> children() {
		return List.of(this.limiter);
	}

	@Override
	public long reserveNanos(T item, long maxWaitNanos) {
		long horizon = Math.min(maxWaitNanos, this.maxWaitNanos);
		return Math.min(LongestDelayRateLimiter.reserveNanos(this.limiter, item, horizon), this.maxWaitNanos);
	}

	@Override
	public Decision decide(T item, long maxWaitNanos) {
		long horizon = Math.min(maxWaitNanos, this.maxWaitNanos);
		Decision decision = LongestDelayRateLimiter.decide(this.limiter, item, horizon);
		return (decision.delay().compareTo(this.maxWait) > 0) ? new Decision(this.maxWait, decision.source())
				: decision;
	}

	@Override
	public Duration when(T item) {
		long nanos = whenNanos(item);
		return (nanos == this.maxWaitNanos) ? this.maxWait : DurationNanos.of(nanos);
	}

	@Override
	public void forget(T item) {
		this.limiter.forget(item);
	}

	@Override
	public int numRequeues(T item) {
		return this.limiter.numRequeues(item);
	}

	@Override
	public RateLimiterState state() {
		return new RateLimiterState("max-wait", StateMapBuilder.of("maxWait", this.maxWait.toString()),
				StateMapBuilder.of(), List.of(this.limiter.state()));
	}

}
