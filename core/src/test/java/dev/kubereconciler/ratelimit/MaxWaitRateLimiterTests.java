package dev.kubereconciler.ratelimit;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kubereconciler.time.ManualClock;

/**
 * Tests for {@link MaxWaitRateLimiter}.
 */
class MaxWaitRateLimiterTests {

	private final ManualClock ticker = new ManualClock();

	private final TokenBucketRateLimiter<String> bucket = new TokenBucketRateLimiter<>(10, 100, this.ticker);

	@Test
	void capsTheDelayAndKeepsBucketDebtWithinOneMaxWaitOfTokens() {
		MaxWaitRateLimiter<String> limiter = new MaxWaitRateLimiter<>(this.bucket, Duration.ofSeconds(1));
		for (int call = 1; call <= 1000; call++) {
			Duration expected = Duration.ofMillis(Math.min(Math.max(0, call - 100) * 100L, 1000));
			assertThat(limiter.when("item-" + call)).as("call %d", call).isEqualTo(expected);
			assertThat(this.bucket.tokens()).as("call %d", call).isGreaterThanOrEqualTo(-10.0);
		}
		assertThat(this.bucket.tokens()).isEqualTo(-10.0);
	}

	@Test
	void debtIsRepaidOneMaxWaitAfterTheStorm() {
		MaxWaitRateLimiter<String> limiter = new MaxWaitRateLimiter<>(this.bucket, Duration.ofSeconds(1));
		for (int call = 0; call < 1000; call++) {
			limiter.when("item");
		}
		this.ticker.advance(Duration.ofSeconds(1));
		assertThat(this.bucket.tokens()).isEqualTo(0.0);
		assertThat(limiter.when("newcomer")).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void boundsTheDebtOfABucketInsideAComposite() {
		ExponentialFailureRateLimiter<String> backoff = new ExponentialFailureRateLimiter<>(Duration.ofMillis(5),
				Duration.ofSeconds(1000));
		RateLimiter<String> limiter = RateLimiters.maxWait(RateLimiters.maxOf(backoff, this.bucket),
				Duration.ofSeconds(1));
		for (int call = 0; call < 500; call++) {
			limiter.when("item-" + call);
			assertThat(this.bucket.tokens()).isGreaterThanOrEqualTo(-10.0);
		}
		assertThat(this.bucket.tokens()).isEqualTo(-10.0);
	}

	@Test
	void backoffKeepsCountingWhileCapped() {
		ExponentialFailureRateLimiter<String> backoff = new ExponentialFailureRateLimiter<>(Duration.ofMillis(5),
				Duration.ofSeconds(1000));
		MaxWaitRateLimiter<String> limiter = new MaxWaitRateLimiter<>(backoff, Duration.ofSeconds(1));
		for (int failure = 0; failure < 30; failure++) {
			assertThat(limiter.when("item")).isLessThanOrEqualTo(Duration.ofSeconds(1));
		}
		assertThat(limiter.when("item")).isEqualTo(Duration.ofSeconds(1));
		assertThat(limiter.numRequeues("item")).isEqualTo(31);
		limiter.forget("item");
		assertThat(limiter.numRequeues("item")).isZero();
		assertThat(limiter.when("item")).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void capsLimitersThatCannotReserve() {
		MaxWaitRateLimiter<String> limiter = new MaxWaitRateLimiter<>(
				new LongestDelayRateLimiterTests.CountingLimiter(Duration.ofMinutes(1)), Duration.ofSeconds(2));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void zeroMaxWaitNeverDelaysAndNeverRunsIntoDebt() {
		MaxWaitRateLimiter<String> limiter = new MaxWaitRateLimiter<>(this.bucket, Duration.ZERO);
		for (int call = 0; call < 200; call++) {
			assertThat(limiter.when("item")).isSameAs(Duration.ZERO);
		}
		assertThat(this.bucket.tokens()).isEqualTo(0.0);
	}

	@Test
	void nestedCapsUseTheTighterHorizon() {
		RateLimiter<String> limiter = RateLimiters.maxWait(RateLimiters.maxWait(this.bucket, Duration.ofSeconds(5)),
				Duration.ofSeconds(1));
		for (int call = 0; call < 1000; call++) {
			limiter.when("item");
		}
		assertThat(this.bucket.tokens()).isEqualTo(-10.0);
	}

	@Test
	void stateWrapsTheChild() {
		RateLimiterState state = new MaxWaitRateLimiter<>(this.bucket, Duration.ofSeconds(1)).state();
		assertThat(state.type()).isEqualTo("max-wait");
		assertThat(state.config()).containsEntry("maxWait", "PT1S");
		assertThat(state.children()).extracting(RateLimiterState::type).containsExactly("bucket");
	}

	@Test
	void rejectsNegativeMaxWait() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MaxWaitRateLimiter<>(this.bucket, Duration.ofSeconds(-1)))
			.withMessageContaining("maxWait")
			.withMessageContaining("PT-1S");
	}

}
