package dev.kubereconciler.snippets;

import java.time.Duration;

import io.kubernetes.client.extended.workqueue.ratelimiter.BucketRateLimiter;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.RateLimiterCustomizer;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;

/**
 * The rate limiter customizations shown in {@code docs/configuration.md}.
 */
@Configuration(proxyBeanMethods = false)
public class LimiterCustomizations {

	// a configmap-auditor key never waits more than a minute, whatever its limiter says
	@Bean
	RateLimiterCustomizer auditorMaxWait() {
		return RateLimiterCustomizer.of("configmap-auditor",
				(limiter) -> RateLimiters.maxWait(limiter, Duration.ofMinutes(1)));
	}

	// a client-java limiter works too: use it with rate-limiter.bean: legacyRateLimiter
	@Bean
	io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<Request> legacyRateLimiter() {
		return new BucketRateLimiter<>(100, 10, Duration.ofSeconds(1));
	}

}
