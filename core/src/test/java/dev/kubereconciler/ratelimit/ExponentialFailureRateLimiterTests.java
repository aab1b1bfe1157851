package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ExponentialFailureRateLimiter}.
 */
class ExponentialFailureRateLimiterTests {

	private final ExponentialFailureRateLimiter<String> limiter = new ExponentialFailureRateLimiter<>(
			Duration.ofMillis(5), Duration.ofSeconds(1000));

	@Test
	void doublesFromBaseUntilTheNineteenthFailureIsCapped() {
		for (int failure = 1; failure <= 18; failure++) {
			assertThat(this.limiter.when("item")).as("failure %d", failure)
				.isEqualTo(Duration.ofMillis(5L << (failure - 1)));
		}
		assertThat(this.limiter.numRequeues("item")).isEqualTo(18);
		assertThat(Duration.ofMillis(5L << 17)).isEqualTo(Duration.ofMillis(655_360));
		assertThat(this.limiter.when("item")).isEqualTo(Duration.ofSeconds(1000));
		assertThat(this.limiter.when("item")).isEqualTo(Duration.ofSeconds(1000));
		assertThat(this.limiter.numRequeues("item")).isEqualTo(20);
	}

	@Test
	void itemsBackOffIndependently() {
		this.limiter.when("a");
		this.limiter.when("a");
		assertThat(this.limiter.when("b")).isEqualTo(Duration.ofMillis(5));
		assertThat(this.limiter.when("a")).isEqualTo(Duration.ofMillis(20));
	}

	@Test
	void forgetStartsOverAndDropsTheItemsState() {
		this.limiter.when("a");
		this.limiter.when("a");
		this.limiter.when("b");
		assertThat(this.limiter.state().live()).containsEntry("trackedItems", 2);
		this.limiter.forget("a");
		this.limiter.forget("b");
		assertThat(this.limiter.numRequeues("a")).isZero();
		assertThat(this.limiter.state().live()).containsEntry("trackedItems", 0);
		assertThat(this.limiter.when("a")).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void neverOverflowsAtAnyFailureCount() {
		long base = Duration.ofMillis(5).toNanos();
		long max = Duration.ofSeconds(1000).toNanos();
		long previous = 0;
		for (int failures = 0; failures < 200; failures++) {
			long delay = ExponentialFailureRateLimiter.backoffNanos(base, max, failures);
			assertThat(delay).as("failures %d", failures).isBetween(previous, max);
			previous = delay;
		}
		assertThat(ExponentialFailureRateLimiter.backoffNanos(base, max, Integer.MAX_VALUE)).isEqualTo(max);
		assertThat(ExponentialFailureRateLimiter.backoffNanos(1, Long.MAX_VALUE, 62)).isEqualTo(1L << 62);
		assertThat(ExponentialFailureRateLimiter.backoffNanos(1, Long.MAX_VALUE, 63)).isEqualTo(Long.MAX_VALUE);
		assertThat(ExponentialFailureRateLimiter.backoffNanos(3, Long.MAX_VALUE, 62)).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void tinyBaseWithHugeMaximumKeepsGrowingWithoutWrapping() {
		Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
		ExponentialFailureRateLimiter<String> limiter = new ExponentialFailureRateLimiter<>(Duration.ofNanos(1), huge);
		Duration previous = Duration.ZERO;
		for (int failure = 1; failure <= 100; failure++) {
			Duration delay = limiter.when("item");
			assertThat(delay).as("failure %d", failure).isGreaterThanOrEqualTo(previous);
			previous = delay;
		}
		assertThat(previous).isEqualTo(huge);
	}

	@Test
	void failureCountSaturatesAtIntegerMaxValue() {
		this.limiter.failures().set("item", Integer.MAX_VALUE - 1);
		assertThat(this.limiter.when("item")).isEqualTo(Duration.ofSeconds(1000));
		assertThat(this.limiter.numRequeues("item")).isEqualTo(Integer.MAX_VALUE);
		assertThat(this.limiter.when("item")).isEqualTo(Duration.ofSeconds(1000));
		assertThat(this.limiter.numRequeues("item")).isEqualTo(Integer.MAX_VALUE);
	}

	@Test
	void zeroDelayIsNeverReturnedAndCapIsReturnedAsConfigured() {
		ExponentialFailureRateLimiter<String> limiter = new ExponentialFailureRateLimiter<>(Duration.ofSeconds(1),
				Duration.ofSeconds(1));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofSeconds(1));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void rejectsInvalidDelaysNamingThem() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ExponentialFailureRateLimiter<>(Duration.ZERO, Duration.ofSeconds(1)))
			.withMessageContaining("baseDelay")
			.withMessageContaining("PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ExponentialFailureRateLimiter<>(Duration.ofSeconds(2), Duration.ofSeconds(1)))
			.withMessageContaining("maxDelay")
			.withMessageContaining("PT1S");
	}

	@Test
	void stateReportsDelaysAsIsoStrings() {
		RateLimiterState state = this.limiter.state();
		assertThat(state.type()).isEqualTo("exponential");
		assertThat(state.config()).containsExactly(Map.entry("baseDelay", "PT0.005S"),
				Map.entry("maxDelay", "PT16M40S"));
		assertThat(state.children()).isEqualTo(List.of());
	}

}
