package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;

/**
 * Per-item two-speed retries, client-go's {@code ItemFastSlowRateLimiter}: the first
 * {@code maxFastAttempts} failures of an item wait {@code fastDelay}, later ones wait
 * {@code slowDelay}.
 *
 * <p>
 * The failure is counted before the comparison, so with {@code maxFastAttempts = 3} the
 * third failure is still fast and the fourth is slow. An item's state is dropped by
 * {@link #forget}.
 *
 * @param <T> the type of item
 */
final class FastSlowRateLimiter<T> implements ReservingRateLimiter<T> {

	private final Duration fastDelay;

	private final Duration slowDelay;

	private final int maxFastAttempts;

	private final long fastNanos;

	private final long slowNanos;

	private final FailureCounter<T> failures = new FailureCounter<>();

	/**
	 * Create a limiter.
	 * @param fastDelay the delay of the first attempts, not negative
	 * @param slowDelay the delay once the fast attempts are used up, not negative
	 * @param maxFastAttempts how many failures get the fast delay, not negative
	 */
	FastSlowRateLimiter(Duration fastDelay, Duration slowDelay, int maxFastAttempts) {
		if (fastDelay == null || fastDelay.isNegative()) {
			throw new IllegalArgumentException("fastDelay must not be negative but was " + fastDelay);
		}
		if (slowDelay == null || slowDelay.isNegative()) {
			throw new IllegalArgumentException("slowDelay must not be negative but was " + slowDelay);
		}
		if (maxFastAttempts < 0) {
			throw new IllegalArgumentException("maxFastAttempts must not be negative but was " + maxFastAttempts);
		}
		this.fastDelay = fastDelay;
		this.slowDelay = slowDelay;
		this.maxFastAttempts = maxFastAttempts;
		this.fastNanos = DurationNanos.toNanos(fastDelay);
		this.slowNanos = DurationNanos.toNanos(slowDelay);
	}

	@Override
	public RateLimiter<T> forScope(String scope) {
		return new FastSlowRateLimiter<>(this.fastDelay, this.slowDelay, this.maxFastAttempts);
	}

	@Override
	public long reserveNanos(T item, long maxWaitNanos) {
		// Counting this failure first, it is fast while the count stays within
		// maxFastAttempts, that is while the earlier count is below it (which also holds
		// for a saturated count).
		int earlier = this.failures.increment(item);
		return (earlier < this.maxFastAttempts) ? this.fastNanos : this.slowNanos;
	}

	@Override
	public Duration when(T item) {
		return (whenNanos(item) == this.fastNanos) ? this.fastDelay : this.slowDelay;
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
		return new RateLimiterState("fast-slow",
				StateMapBuilder.of("fastDelay", this.fastDelay.toString(), "slowDelay", this.slowDelay.toString(),
						"maxFastAttempts", this.maxFastAttempts),
				StateMapBuilder.of("trackedItems", this.failures.size()), List.of());
	}

	FailureCounter<T> failures() {
		return this.failures;
	}

}
