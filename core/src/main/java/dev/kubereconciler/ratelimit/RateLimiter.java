package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;

/**
 * Decides how long an item waits before it is retried, with the semantics of client-go's
 * {@code workqueue.TypedRateLimiter}.
 *
 * <p>
 * Implementations are thread-safe.
 *
 * @param <T> the type of item
 */
public interface RateLimiter<T> {

	/**
	 * Record a failure of the given item and return how long it should wait before its
	 * next attempt.
	 * @param item the item that failed
	 * @return the delay, never negative
	 */
	Duration when(T item);

	/**
	 * Record a failure of the given item, like {@link #when}, and say which kind of
	 * limiter decided the delay, so that a delay can be attributed to backoff or to a
	 * token bucket.
	 * @param item the item that failed
	 * @return the delay and its source; {@link DelaySource#BACKOFF} unless overridden
	 */
	default Decision decide(T item) {
		return new Decision(when(item), DelaySource.BACKOFF);
	}

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

	/**
	 * Return a limiter for one scope, typically one controller, that keeps its own
	 * per-item history but shares this limiter's rate: token buckets are shared, per-item
	 * backoff is not. A manager uses it when one limiter instance is handed to several
	 * controllers, so that two controllers never share one item's backoff.
	 * <p>
	 * The default returns this limiter, which suits limiters without per-item state. A
	 * composite must scope each of its {@link #children()}, so that a shared instance is
	 * found at any depth.
	 * @param scope the scope, such as a controller name
	 * @return the scoped limiter
	 * @throws IllegalStateException if this limiter keeps per-item state that it cannot
	 * copy, so that sharing it would make scopes share backoff
	 */
	default RateLimiter<T> forScope(String scope) {
		return this;
	}

	/**
	 * Return the limiters this one is composed of, for introspection.
	 * @return the children, empty for a leaf limiter
	 */
	default List<RateLimiter<T>> children() {
		return List.of();
	}

	/**
	 * A delay and the kind of limiter that decided it.
	 *
	 * @param delay the delay, never negative
	 * @param source the kind of limiter whose delay was the longest
	 */
	record Decision(Duration delay, DelaySource source) {

	}

}
