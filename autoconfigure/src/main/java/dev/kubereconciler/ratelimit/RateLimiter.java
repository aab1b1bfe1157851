package dev.kubereconciler.ratelimit;

import java.time.Duration;

/**
 * Decides how long an item waits before it is retried, with the semantics of client-go's
 * {@code workqueue.TypedRateLimiter}.
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the type of item
 */
public interface RateLimiter<T> {

	/**
	 * Record a failure of the given item and return how long it should wait before its next
	 * attempt.
	 * @param item the item that failed
	 * @return the delay, never negative
	 */
	Duration when(T item);

	/**
	 * Clear the failure history of the given item, as after a successful reconcile.
	 * @param item the item
	 */
	void forget(T item);

	/**
	 * Return how many failures are recorded for the given item.
	 * @param item the item
	 * @return the number of failures since the last {@link #forget}
	 */
	int numRequeues(T item);

	/**
	 * Return a read-only description of this limiter's configuration and live state.
	 * @return the state
	 */
	default RateLimiterState state() {
		return RateLimiterState.of(getClass().getSimpleName());
	}

}
