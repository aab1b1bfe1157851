package dev.kubereconciler.ratelimit;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.ratelimit.RateLimiter.Decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubereconciler.time.ManualClock;

/**
 * Tests for {@link RateLimiter#decide}: a composed limiter's delay is attributed to the
 * kind of child whose delay was the longest, with the same delays as
 * {@link RateLimiter#when}.
 */
class DelayAttributionTests {

	private final ManualClock ticker = new ManualClock();

	@Test
	void controllerDefaultIsBackoffUntilTheBucketRunsDry() {
		RateLimiter<Integer> limiter = RateLimiters.controllerDefault(this.ticker);
		for (int item = 1; item <= 100; item++) {
			assertThat(limiter.decide(item)).isEqualTo(new Decision(Duration.ofMillis(5), DelaySource.BACKOFF));
		}
		assertThat(limiter.decide(101)).isEqualTo(new Decision(Duration.ofMillis(100), DelaySource.BUCKET));
		assertThat(limiter.decide(102)).isEqualTo(new Decision(Duration.ofMillis(200), DelaySource.BUCKET));
	}

	@Test
	void backoffThatOutgrowsTheBucketDecidesAgain() {
		RateLimiter<Integer> limiter = RateLimiters.controllerDefault(this.ticker);
		for (int failure = 0; failure < 5; failure++) {
			limiter.decide(1);
		}
		// 5 ms · 2^5 = 160 ms beats a bucket with 95 tokens left
		assertThat(limiter.decide(1)).isEqualTo(new Decision(Duration.ofMillis(160), DelaySource.BACKOFF));
	}

	@Test
	void maxWaitCapsTheDelayAndKeepsItsSource() {
		TokenBucketRateLimiter<Integer> bucket = RateLimiters.bucket(1, 1, this.ticker);
		RateLimiter<Integer> limiter = RateLimiters.maxWait(
				RateLimiters.maxOf(RateLimiters.exponential(Duration.ofMillis(1), Duration.ofSeconds(1)), bucket),
				Duration.ofMillis(500));
		assertThat(limiter.decide(1)).isEqualTo(new Decision(Duration.ofMillis(1), DelaySource.BACKOFF));
		assertThat(limiter.decide(2)).isEqualTo(new Decision(Duration.ofMillis(500), DelaySource.BUCKET));
		// the capped call took no token: the bucket owes nothing beyond its first token
		assertThat(bucket.tokens()).isEqualTo(0.0);
	}

	@Test
	void userLimitersAreBackoffAndAnUnlimitedBucketNeverDecides() {
		RateLimiter<Integer> custom = new RateLimiter<>() {

			@Override
			public Duration when(Integer item) {
				return Duration.ofSeconds(3);
			}

			@Override
			public void forget(Integer item) {
			}

			@Override
			public int numRequeues(Integer item) {
				return 0;
			}

		};
		RateLimiter<Integer> limiter = RateLimiters.maxOf(custom,
				RateLimiters.bucket(Double.POSITIVE_INFINITY, 1, this.ticker));
		assertThat(limiter.decide(1)).isEqualTo(new Decision(Duration.ofSeconds(3), DelaySource.BACKOFF));
		assertThat(RateLimiters.<Integer>none().decide(1)).isEqualTo(new Decision(Duration.ZERO, DelaySource.BACKOFF));
	}

}
