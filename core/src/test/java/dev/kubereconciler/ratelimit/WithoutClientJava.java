package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Uses {@link RateLimiters} through ordinary calls, to be loaded by a class loader that
 * cannot see client-java-extended.
 */
public class WithoutClientJava implements Supplier<List<Duration>> {

	@Override
	public List<Duration> get() {
		RateLimiter<String> limiter = RateLimiters.maxWait(RateLimiters.controllerDefault(), Duration.ofSeconds(1));
		return List.of(limiter.when("item"), RateLimiters.<String>none().when("item"));
	}

}
