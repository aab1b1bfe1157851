package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;

/**
 * Per-item exponential backoff, client-go's {@code ItemExponentialFailureRateLimiter}:
 * the delay is {@code baseDelay · 2^failures} (failures recorded before this one), capped
 * at {@code maxDelay}; the controller default is 5 ms / 1000 s.
 *
 * <p>
 * Unlike client-java, the delay never overflows or turns negative, whatever the failure
 * count and however small the base; the count itself saturates at
 * {@link Integer#MAX_VALUE}. An item's state is dropped by {@link #forget}.
 *
 * @param <T> the type of item
 */
final class ExponentialFailureRateLimiter<T> implements ReservingRateLimiter<T> {

	private final Duration baseDelay;

	private final Duration maxDelay;

	private final long baseNanos;

	private final long maxNanos;

	private final FailureCounter<T> failures = new FailureCounter<>();

	/**
	 * Create a limiter.
	 * @param baseDelay the delay after the first failure, positive
	 * @param maxDelay the largest delay, at least {@code baseDelay}
	 */
	ExponentialFailureRateLimiter(Duration baseDelay, Duration maxDelay) {
		if (baseDelay == null || baseDelay.isNegative() || baseDelay.isZero()) {
			throw new IllegalArgumentException("baseDelay must be positive but was " + baseDelay);
		}
		if (maxDelay == null || maxDelay.compareTo(baseDelay) < 0) {
			throw new IllegalArgumentException(
					"maxDelay must be at least baseDelay (" + baseDelay + ") but was " + maxDelay);
		}
		this.baseDelay = baseDelay;
		this.maxDelay = maxDelay;
		this.baseNanos = DurationNanos.toNanos(baseDelay);
		this.maxNanos = DurationNanos.toNanos(maxDelay);
	}

	@Override
	public RateLimiter<T> forScope(String scope) {
		return new ExponentialFailureRateLimiter<>(this.baseDelay, this.maxDelay);
	}

	@Override
	public long reserveNanos(T item, long maxWaitNanos) {
		return backoffNanos(this.baseNanos, this.maxNanos, this.failures.increment(item));
	}

	@Override
	public Duration when(T item) {
		long nanos = whenNanos(item);
		// The cap is by far the most frequent non-zero answer in a storm; returning the
		// configured instance keeps it free of allocation.
		return (nanos == this.maxNanos) ? this.maxDelay : DurationNanos.of(nanos);
	}

	@Override
	public void forget(T item) {
		this.failures.forget(item);
	}

	@Override
	public int numRequeues(T item) {
		return this.failures.get(item);
	}

	@Override
	public RateLimiterState state() {
		return new RateLimiterState("exponential",
				StateMapBuilder.of("baseDelay", this.baseDelay.toString(), "maxDelay", this.maxDelay.toString()),
				StateMapBuilder.of("trackedItems", this.failures.size()), List.of());
	}

	/**
	 * Return {@code base · 2^failures} capped at {@code max}, in exact integer arithmetic
	 * that cannot overflow.
	 * @param baseNanos the base delay, positive
	 * @param maxNanos the cap, at least {@code baseNanos}
	 * @param failures the failures recorded before this one, not negative
	 * @return the delay in nanoseconds
	 */
	static long backoffNanos(long baseNanos, long maxNanos, int failures) {
		if (failures >= Long.SIZE - 1 || baseNanos > (maxNanos >> failures)) {
			return maxNanos;
		}
		return Math.min(baseNanos << failures, maxNanos);
	}

	FailureCounter<T> failures() {
		return this.failures;
	}

}
