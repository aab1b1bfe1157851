package dev.kubereconciler.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The longest delay of several limiters, client-go's {@code LongestDelayRateLimiter}; the
 * controller default combines exponential backoff with a token bucket this way.
 *
 * <p>
 * Every child is asked on every {@link #when}, so a bucket child spends its token even
 * when the backoff child decides the delay. {@link #numRequeues} is the largest count
 * among the children and {@link #forget} reaches all of them.
 *
 * @param <T> the type of item
 */
public final class LongestDelayRateLimiter<T> implements ReservingRateLimiter<T> {

	private final RateLimiter<T>[] limiters;

	/**
	 * Create a limiter.
	 * @param limiters the children, at least one
	 */
	@SafeVarargs
	public LongestDelayRateLimiter(RateLimiter<T>... limiters) {
		if (limiters == null || limiters.length == 0) {
			throw new IllegalArgumentException("limiters must contain at least one limiter");
		}
		for (RateLimiter<T> limiter : limiters) {
			if (limiter == null) {
				throw new IllegalArgumentException("limiters must not contain null");
			}
		}
		this.limiters = limiters.clone();
	}

	@Override
	@SuppressWarnings("unchecked")
	public RateLimiter<T> forScope(String scope) {
		RateLimiter<T>[] scoped = new RateLimiter[this.limiters.length];
		boolean changed = false;
		for (int i = 0; i < this.limiters.length; i++) {
			scoped[i] = this.limiters[i].forScope(scope);
			changed |= scoped[i] != this.limiters[i];
		}
		return changed ? new LongestDelayRateLimiter<>(scoped) : this;
	}

	@Override
	public List<RateLimiter<T>> children() {
		return List.of(this.limiters);
	}

	@Override
	public long reserveNanos(T item, long maxWaitNanos) {
		long longest = 0;
		for (RateLimiter<T> limiter : this.limiters) {
			longest = Math.max(longest, reserveNanos(limiter, item, maxWaitNanos));
		}
		return longest;
	}

	@Override
	public Decision decide(T item, long maxWaitNanos) {
		Decision longest = null;
		for (RateLimiter<T> limiter : this.limiters) {
			Decision decision = decide(limiter, item, maxWaitNanos);
			if (longest == null || decision.delay().compareTo(longest.delay()) > 0) {
				longest = decision;
			}
		}
		// there is at least one limiter
		return Objects.requireNonNull(longest);
	}

	static <T> Decision decide(RateLimiter<T> limiter, T item, long maxWaitNanos) {
		if (limiter instanceof ReservingRateLimiter<T> reserving) {
			return reserving.decide(item, maxWaitNanos);
		}
		return limiter.decide(item);
	}

	static <T> long reserveNanos(RateLimiter<T> limiter, T item, long maxWaitNanos) {
		if (limiter instanceof ReservingRateLimiter<T> reserving) {
			return reserving.reserveNanos(item, maxWaitNanos);
		}
		return DurationNanos.toNanos(limiter.when(item));
	}

	@Override
	public void forget(T item) {
		for (RateLimiter<T> limiter : this.limiters) {
			limiter.forget(item);
		}
	}

	@Override
	public int numRequeues(T item) {
		int most = 0;
		for (RateLimiter<T> limiter : this.limiters) {
			most = Math.max(most, limiter.numRequeues(item));
		}
		return most;
	}

	@Override
	public RateLimiterState state() {
		List<RateLimiterState> children = new ArrayList<>(this.limiters.length);
		for (RateLimiter<T> limiter : this.limiters) {
			children.add(limiter.state());
		}
		return new RateLimiterState("max-of", Map.of(), Map.of(), children);
	}

}
