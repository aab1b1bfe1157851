package dev.kubereconciler.metrics;

import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

/**
 * Finds the token bucket inside a composed limiter, for the {@code ratelimiter_tokens} gauge.
 */
final class TokenBuckets {

	private TokenBuckets() {
	}

	static TokenBucketRateLimiter<?> find(RateLimiter<?> limiter) {
		if (limiter instanceof TokenBucketRateLimiter<?> bucket) {
			return bucket;
		}
		for (RateLimiter<?> child : limiter.children()) {
			TokenBucketRateLimiter<?> bucket = find(child);
			if (bucket != null) {
				return bucket;
			}
		}
		return null;
	}

}
