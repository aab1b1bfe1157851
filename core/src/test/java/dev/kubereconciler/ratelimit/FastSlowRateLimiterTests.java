package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link FastSlowRateLimiter}.
 */
class FastSlowRateLimiterTests {

	private static final Duration FAST = Duration.ofMillis(10);

	private static final Duration SLOW = Duration.ofSeconds(1);

	private final FastSlowRateLimiter<String> limiter = new FastSlowRateLimiter<>(FAST, SLOW, 3);

	@Test
	void failuresUpToMaxFastAttemptsAreFastThenSlow() {
		assertThat(this.limiter.when("item")).isEqualTo(FAST);
		assertThat(this.limiter.when("item")).isEqualTo(FAST);
		assertThat(this.limiter.when("item")).isEqualTo(FAST);
		assertThat(this.limiter.when("item")).isEqualTo(SLOW);
		assertThat(this.limiter.when("item")).isEqualTo(SLOW);
		assertThat(this.limiter.numRequeues("item")).isEqualTo(5);
	}

	@Test
	void zeroMaxFastAttemptsIsAlwaysSlow() {
		FastSlowRateLimiter<String> limiter = new FastSlowRateLimiter<>(FAST, SLOW, 0);
		assertThat(limiter.when("item")).isEqualTo(SLOW);
	}

	@Test
	void forgetMakesTheItemFastAgainAndDropsItsState() {
		for (int failure = 0; failure < 4; failure++) {
			this.limiter.when("item");
		}
		this.limiter.forget("item");
		assertThat(this.limiter.numRequeues("item")).isZero();
		assertThat(this.limiter.state().live()).containsEntry("trackedItems", 0);
		assertThat(this.limiter.when("item")).isEqualTo(FAST);
	}

	@Test
	void failureBeyondIntegerMaxValueIsSlowEvenWithUnlimitedFastAttempts() {
		FastSlowRateLimiter<String> limiter = new FastSlowRateLimiter<>(FAST, SLOW, Integer.MAX_VALUE);
		limiter.failures().set("item", Integer.MAX_VALUE - 1);
		assertThat(limiter.when("item")).isEqualTo(FAST);
		assertThat(limiter.numRequeues("item")).isEqualTo(Integer.MAX_VALUE);
		assertThat(limiter.when("item")).isEqualTo(SLOW);
		assertThat(limiter.when("item")).isEqualTo(SLOW);
		assertThat(limiter.numRequeues("item")).isEqualTo(Integer.MAX_VALUE);
	}

	@Test
	void equalFastAndSlowDelaysAreBothReported() {
		FastSlowRateLimiter<String> limiter = new FastSlowRateLimiter<>(FAST, FAST, 1);
		assertThat(limiter.when("item")).isEqualTo(FAST);
		assertThat(limiter.when("item")).isEqualTo(FAST);
	}

	@Test
	void rejectsInvalidArgumentsNamingThem() {
		assertThatIllegalArgumentException().isThrownBy(() -> new FastSlowRateLimiter<>(FAST, SLOW, -1))
			.withMessageContaining("maxFastAttempts")
			.withMessageContaining("-1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new FastSlowRateLimiter<>(Duration.ofSeconds(-1), SLOW, 1))
			.withMessageContaining("fastDelay");
		assertThatIllegalArgumentException().isThrownBy(() -> new FastSlowRateLimiter<>(FAST, null, 1))
			.withMessageContaining("slowDelay");
	}

	@Test
	void stateReportsConfiguration() {
		this.limiter.when("item");
		RateLimiterState state = this.limiter.state();
		assertThat(state.type()).isEqualTo("fast-slow");
		assertThat(state.config()).containsExactly(Map.entry("fastDelay", "PT0.01S"), Map.entry("slowDelay", "PT1S"),
				Map.entry("maxFastAttempts", 3));
		assertThat(state.live()).containsExactly(Map.entry("trackedItems", 1));
	}

}
