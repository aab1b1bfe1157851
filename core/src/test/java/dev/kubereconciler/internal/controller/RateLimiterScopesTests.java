package dev.kubereconciler.internal.controller;

import java.time.Duration;
import java.util.List;

import io.kubernetes.client.extended.workqueue.ratelimiter.BucketRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.time.ManualClock;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RateLimiterScopes}: two controllers never share one key's backoff,
 * however deep the shared instance sits, while a shared bucket stays one bucket.
 */
class RateLimiterScopesTests {

	private static final Duration BASE = Duration.ofSeconds(1);

	private final ManualClock ticker = new ManualClock();

	private final RateLimiter<String> sharedBackoff = RateLimiters.exponential(BASE, Duration.ofSeconds(1000));

	@Test
	void sharedMaxOfChildKeepsBackoffPerController() {
		TokenBucketRateLimiter<String> bucket = RateLimiters.bucket(10, 100, this.ticker);
		List<RateLimiter<String>> scoped = RateLimiterScopes.scopeShared(List.of("a", "b"), List
			.of(RateLimiters.maxOf(this.sharedBackoff, bucket), RateLimiters.maxOf(this.sharedBackoff, bucket)));
		assertThat(scoped.get(0).when("ns/x")).isEqualTo(BASE);
		assertThat(scoped.get(0).when("ns/x")).isEqualTo(BASE.multipliedBy(2));
		assertThat(scoped.get(1).when("ns/x")).isEqualTo(BASE);
		assertThat(scoped.get(1).numRequeues("ns/x")).isEqualTo(1);
		assertThat(RateLimiters.buckets(scoped.get(0))).containsExactly(bucket);
		assertThat(RateLimiters.buckets(scoped.get(1))).containsExactly(bucket);
	}

	@Test
	void sharedMaxWaitChildKeepsBackoffPerController() {
		// what two customizers wrapping one limiter bean produce
		List<RateLimiter<String>> scoped = RateLimiterScopes.scopeShared(List.of("a", "b"),
				List.of(RateLimiters.maxWait(this.sharedBackoff, Duration.ofMinutes(1)),
						RateLimiters.maxWait(this.sharedBackoff, Duration.ofMinutes(1))));
		scoped.get(0).when("ns/x");
		scoped.get(0).when("ns/x");
		assertThat(scoped.get(1).when("ns/x")).isEqualTo(BASE);
		assertThat(scoped.get(0).numRequeues("ns/x")).isEqualTo(2);
		assertThat(this.sharedBackoff.numRequeues("ns/x")).isZero();
	}

	@Test
	void sharedTopLevelLimiterIsScoped() {
		List<RateLimiter<String>> scoped = RateLimiterScopes.scopeShared(List.of("a", "b"),
				List.of(this.sharedBackoff, this.sharedBackoff));
		scoped.get(0).when("ns/x");
		assertThat(scoped.get(1).numRequeues("ns/x")).isZero();
	}

	@Test
	void limitersSharingNothingAreKeptAsTheyAre() {
		RateLimiter<String> first = RateLimiters.controllerDefault(this.ticker);
		RateLimiter<String> second = RateLimiters.controllerDefault(this.ticker);
		List<RateLimiter<String>> scoped = RateLimiterScopes.scopeShared(List.of("a", "b"), List.of(first, second));
		assertThat(scoped.get(0)).isSameAs(first);
		assertThat(scoped.get(1)).isSameAs(second);
	}

	@Test
	void sharedClientJavaLimiterWithPerItemStateFailsNamingTheControllers() {
		RateLimiter<String> legacy = RateLimiters
			.fromClientJava(new ItemExponentialFailureRateLimiter<>(BASE, Duration.ofSeconds(60)));
		assertThatIllegalStateException()
			.isThrownBy(() -> RateLimiterScopes.scopeShared(List.of("a", "b", "c"),
					List.of(RateLimiters.maxOf(legacy, RateLimiters.none()), RateLimiters.none(), legacy)))
			.withMessageContaining("Controllers 'a', 'c' share one rate limiter instance")
			.withMessageContaining(ItemExponentialFailureRateLimiter.class.getName())
			.withMessageContaining("@Scope(\"prototype\")");
	}

	@Test
	void sharedClientJavaBucketStaysShared() {
		RateLimiter<String> bucket = RateLimiters
			.fromClientJava(new BucketRateLimiter<>(100, 10, Duration.ofSeconds(1)));
		List<RateLimiter<String>> scoped = RateLimiterScopes.scopeShared(List.of("a", "b"), List
			.of(RateLimiters.maxOf(this.sharedBackoff, bucket), RateLimiters.maxOf(this.sharedBackoff, bucket)));
		assertThat(scoped.get(0).children()).element(1).isSameAs(bucket);
		assertThat(scoped.get(1).children()).element(1).isSameAs(bucket);
	}

}
