package dev.kubereconciler.ratelimit;

import java.util.List;
import java.util.Map;

/**
 * A limiter that never delays and keeps no state, for controllers whose retries should
 * not be rate-limited at all (type {@code none}).
 *
 * @param <T> the type of item
 */
final class NoRateLimiter<T> implements ReservingRateLimiter<T> {

	@Override
	public long reserveNanos(T item, long maxWaitNanos) {
		return 0;
	}

	@Override
	public void forget(T item) {
	}

	@Override
	public int numRequeues(T item) {
		return 0;
	}

	@Override
	public RateLimiterState state() {
		return new RateLimiterState("none", Map.of(), Map.of(), List.of());
	}

}
