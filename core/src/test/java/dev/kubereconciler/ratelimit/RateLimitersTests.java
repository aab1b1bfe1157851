package dev.kubereconciler.ratelimit;

import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.kubereconciler.time.ManualClock;

/**
 * Tests for {@link RateLimiters}.
 */
class RateLimitersTests {

	private final ManualClock ticker = new ManualClock();

	@Test
	void controllerDefaultBacksOffFromFiveMillisecondsAndSharesTenQpsWithBurstOfHundred() {
		RateLimiter<String> limiter = RateLimiters.controllerDefault(this.ticker);
		for (int item = 1; item <= 100; item++) {
			assertThat(limiter.when("item-" + item)).isEqualTo(Duration.ofMillis(5));
		}
		assertThat(limiter.when("item-101")).isEqualTo(Duration.ofMillis(100));
		this.ticker.advance(Duration.ofSeconds(1));
		assertThat(limiter.when("item-1")).isEqualTo(Duration.ofMillis(10));
		assertThat(limiter.numRequeues("item-1")).isEqualTo(2);
	}

	@Test
	void controllerDefaultDescribesItself() {
		RateLimiterState state = RateLimiters.controllerDefault(this.ticker).state();
		assertThat(state.type()).isEqualTo("max-of");
		assertThat(state.children()).hasSize(2);
		assertThat(state.children().get(0).config()).containsExactly(Map.entry("baseDelay", "PT0.005S"),
				Map.entry("maxDelay", "PT16M40S"));
		assertThat(state.children().get(1).config()).containsExactly(Map.entry("qps", 10.0), Map.entry("burst", 100));
	}

	@Test
	void controllerDefaultIsANewLimiterEachTime() {
		RateLimiter<String> first = RateLimiters.controllerDefault(this.ticker);
		first.when("item");
		assertThat(RateLimiters.<String>controllerDefault(this.ticker).numRequeues("item")).isZero();
	}

	@Test
	void noneNeverDelaysAndKeepsNoState() {
		RateLimiter<String> limiter = RateLimiters.none();
		for (int call = 0; call < 10; call++) {
			assertThat(limiter.when("item")).isSameAs(Duration.ZERO);
		}
		assertThat(limiter.numRequeues("item")).isZero();
		assertThat(limiter.state()).isEqualTo(RateLimiterState.of("none"));
	}

	@Test
	void clientJavaLimiterIsAdapted() {
		RateLimiter<String> limiter = RateLimiters
			.fromClientJava(new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofMillis(10));
		assertThat(limiter.numRequeues("item")).isEqualTo(2);
		limiter.forget("item");
		assertThat(limiter.numRequeues("item")).isZero();
		assertThat(limiter.state().type()).isEqualTo("client-java");
		assertThat(limiter.state().config()).containsEntry("class", ItemExponentialFailureRateLimiter.class.getName());
	}

	@Test
	void clientJavaNegativeDelayMeansNow() {
		RateLimiter<String> limiter = RateLimiters
			.fromClientJava(new io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<String>() {

				@Override
				public Duration when(String item) {
					return Duration.ofMillis(-5);
				}

				@Override
				public void forget(String item) {
				}

				@Override
				public int numRequeues(String item) {
					return 0;
				}

			});
		assertThat(limiter.when("item")).isSameAs(Duration.ZERO);
	}

	@Test
	@SuppressWarnings("unchecked")
	void rateLimitersLoadAndWorkWithoutClientJavaExtended() throws Exception {
		URL classes = RateLimiters.class.getProtectionDomain().getCodeSource().getLocation();
		URL testClasses = WithoutClientJava.class.getProtectionDomain().getCodeSource().getLocation();
		try (URLClassLoader isolated = new URLClassLoader(new URL[] { classes, testClasses },
				ClassLoader.getPlatformClassLoader())) {
			assertThatExceptionOfType(ClassNotFoundException.class).isThrownBy(
					() -> isolated.loadClass("io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter"));
			Class<?> caller = isolated.loadClass(WithoutClientJava.class.getName());
			assertThat(caller.getClassLoader()).isSameAs(isolated);
			Supplier<List<Duration>> delays = (Supplier<List<Duration>>) caller.getConstructor().newInstance();
			assertThat(delays.get()).containsExactly(Duration.ofMillis(5), Duration.ZERO);
		}
	}

	@Test
	void bucketsFindsEveryBucketOnceInsideComposites() {
		TokenBucketRateLimiter<String> shared = RateLimiters.bucket(1, 1);
		TokenBucketRateLimiter<String> other = RateLimiters.bucket(2, 2);
		RateLimiter<String> limiter = RateLimiters.maxOf(
				RateLimiters.exponential(Duration.ofMillis(1), Duration.ofSeconds(1)),
				RateLimiters.maxWait(shared, Duration.ofSeconds(1)), other, shared);
		assertThat(RateLimiters.buckets(limiter)).containsExactly(shared, other);
		assertThat(RateLimiters.buckets(RateLimiters.<String>none())).isEmpty();
		assertThat(RateLimiters.buckets(shared)).containsExactly(shared);
	}

}
