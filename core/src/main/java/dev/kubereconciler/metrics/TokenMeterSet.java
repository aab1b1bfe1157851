package dev.kubereconciler.metrics;

import java.util.function.Supplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

/**
 * The {@code ratelimiter_tokens} gauges: the manager bucket's and each controller
 * bucket's tokens, negative while callers have run into debt.
 */
final class TokenMeterSet {

	/** The {@code limiter} label of the manager bucket. */
	static final String MANAGER_LIMITER = "manager";

	private TokenMeterSet() {
	}

	static void manager(MeterRegistry registry, Supplier<TokenBucketRateLimiter<?>> bucket) {
		tokens(registry, MANAGER_LIMITER, bucket);
	}

	static void tokens(MeterRegistry registry, String limiter, Supplier<TokenBucketRateLimiter<?>> bucket) {
		Gauge.builder("ratelimiter.tokens", () -> {
			TokenBucketRateLimiter<?> current = bucket.get();
			return (current != null) ? current.tokens() : Double.NaN;
		})
			.description("Tokens in a rate limiter's token bucket; negative means debt")
			.tag("limiter", limiter)
			.strongReference(true)
			.register(registry);
	}

}
