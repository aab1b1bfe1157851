package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kubereconciler.time.Ticker;

/**
 * Factory methods for the client-go rate limiters; {@link #controllerDefault()} is what a
 * controller uses unless configured otherwise. The built-in limiters are
 * {@link ReservingRateLimiter}s, whose {@code whenNanos} answers without allocating.
 *
 * <p>
 * All delays are {@link Duration}s and all rates are tokens per second. Limiters that
 * keep time read it from a {@link Ticker}, {@link Ticker#system()} unless one is given.
 */
public final class RateLimiters {

	/** The default base delay of exponential backoff: 5 ms, as in client-go. */
	public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(5);

	/** The default cap of exponential backoff: 1000 s, as in client-go. */
	public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1000);

	/** The default refill rate of a controller's token bucket: 10 tokens per second. */
	public static final double DEFAULT_QPS = 10;

	/** The default capacity of a controller's token bucket: 100 tokens. */
	public static final int DEFAULT_BURST = 100;

	private RateLimiters() {
	}

	/**
	 * Per-item exponential backoff: {@code baseDelay · 2^failures}, capped at
	 * {@code maxDelay}.
	 * @param <T> the type of item
	 * @param baseDelay the delay after the first failure, positive
	 * @param maxDelay the largest delay, at least {@code baseDelay}
	 * @return the limiter
	 */
	public static <T> ReservingRateLimiter<T> exponential(Duration baseDelay, Duration maxDelay) {
		return new ExponentialFailureRateLimiter<>(baseDelay, maxDelay);
	}

	/**
	 * Per-item two-speed retries: {@code fastDelay} for the first {@code maxFastAttempts}
	 * failures, then {@code slowDelay}.
	 * @param <T> the type of item
	 * @param fastDelay the delay of the first attempts, not negative
	 * @param slowDelay the later delay, not negative
	 * @param maxFastAttempts how many failures get the fast delay, not negative
	 * @return the limiter
	 */
	public static <T> ReservingRateLimiter<T> fastSlow(Duration fastDelay, Duration slowDelay, int maxFastAttempts) {
		return new FastSlowRateLimiter<>(fastDelay, slowDelay, maxFastAttempts);
	}

	/**
	 * A token bucket shared by all items, on the system ticker.
	 * @param <T> the type of item
	 * @param qps the refill rate in tokens per second, positive or
	 * {@link Double#POSITIVE_INFINITY}
	 * @param burst the capacity, at least 1
	 * @return the limiter
	 * @see TokenBucketRateLimiter
	 */
	public static <T> TokenBucketRateLimiter<T> bucket(double qps, int burst) {
		return bucket(qps, burst, Ticker.system());
	}

	/**
	 * A token bucket shared by all items.
	 * @param <T> the type of item
	 * @param qps the refill rate in tokens per second, positive or
	 * {@link Double#POSITIVE_INFINITY}
	 * @param burst the capacity, at least 1
	 * @param ticker the source of time
	 * @return the limiter
	 * @see TokenBucketRateLimiter
	 */
	public static <T> TokenBucketRateLimiter<T> bucket(double qps, int burst, Ticker ticker) {
		return new TokenBucketRateLimiter<>(qps, burst, ticker);
	}

	/**
	 * The longest delay of the given limiters, every one of which is asked each time.
	 * @param <T> the type of item
	 * @param limiters the limiters, at least one
	 * @return the limiter
	 * @see LongestDelayRateLimiter
	 */
	@SafeVarargs
	public static <T> ReservingRateLimiter<T> maxOf(RateLimiter<T>... limiters) {
		return new LongestDelayRateLimiter<>(limiters);
	}

	/**
	 * Caps the delay of a limiter and keeps a token bucket inside it from running into
	 * debt that nobody waits for.
	 * @param <T> the type of item
	 * @param limiter the limiter to cap
	 * @param maxWait the longest delay, not negative
	 * @return the limiter
	 */
	public static <T> ReservingRateLimiter<T> maxWait(RateLimiter<T> limiter, Duration maxWait) {
		return new MaxWaitRateLimiter<>(limiter, maxWait);
	}

	/**
	 * The controller default on the system ticker: the longer of exponential backoff from
	 * 5 ms to 1000 s and a bucket of 10 qps with a burst of 100.
	 * @param <T> the type of item
	 * @return a new limiter, to be used by one controller
	 */
	public static <T> ReservingRateLimiter<T> controllerDefault() {
		return controllerDefault(Ticker.system());
	}

	/**
	 * The controller default: the longer of exponential backoff from 5 ms to 1000 s and a
	 * bucket of 10 qps with a burst of 100.
	 * @param <T> the type of item
	 * @param ticker the source of time of the bucket
	 * @return a new limiter, to be used by one controller
	 */
	public static <T> ReservingRateLimiter<T> controllerDefault(Ticker ticker) {
		return maxOf(exponential(DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY), bucket(DEFAULT_QPS, DEFAULT_BURST, ticker));
	}

	/**
	 * A limiter that never delays.
	 * @param <T> the type of item
	 * @return the limiter
	 */
	public static <T> ReservingRateLimiter<T> none() {
		return new NoRateLimiter<>();
	}

	/**
	 * Return the token buckets inside a limiter, itself included, each once, in the order
	 * a depth-first walk of {@link RateLimiter#children()} meets them; for gauges and
	 * retuning.
	 * @param limiter the limiter
	 * @return the buckets, empty when there are none
	 */
	public static List<TokenBucketRateLimiter<?>> buckets(RateLimiter<?> limiter) {
		List<TokenBucketRateLimiter<?>> buckets = new ArrayList<>();
		collectBuckets(limiter, buckets);
		return buckets;
	}

	private static void collectBuckets(RateLimiter<?> limiter, List<TokenBucketRateLimiter<?>> buckets) {
		if (limiter instanceof TokenBucketRateLimiter<?> bucket) {
			if (!buckets.contains(bucket)) {
				buckets.add(bucket);
			}
			return;
		}
		limiter.children().forEach((child) -> collectBuckets(child, buckets));
	}

	/**
	 * Adapts a client-java-extended limiter. Negative delays, which client-java's
	 * exponential limiter produces after enough failures, are reported as zero.
	 * @param <T> the type of item
	 * @param limiter the client-java limiter
	 * @return the limiter
	 */
	public static <T> RateLimiter<T> fromClientJava(
			io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<T> limiter) {
		return new ClientJavaRateLimiterAdapter<>(limiter);
	}

}
