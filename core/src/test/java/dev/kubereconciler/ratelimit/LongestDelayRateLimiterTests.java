package dev.kubereconciler.ratelimit;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kubereconciler.time.ManualClock;

/**
 * Tests for {@link LongestDelayRateLimiter}.
 */
class LongestDelayRateLimiterTests {

	private final ManualClock ticker = new ManualClock();

	@Test
	void returnsTheLongestDelayOfItsChildren() {
		LongestDelayRateLimiter<String> limiter = new LongestDelayRateLimiter<>(
				new ExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)),
				new TokenBucketRateLimiter<>(10, 1, this.ticker));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofMillis(100));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofMillis(200));
	}

	@Test
	void bucketSpendsATokenEvenWhenBackoffDominates() {
		TokenBucketRateLimiter<String> bucket = new TokenBucketRateLimiter<>(10, 100, this.ticker);
		LongestDelayRateLimiter<String> limiter = new LongestDelayRateLimiter<>(
				new ExponentialFailureRateLimiter<>(Duration.ofSeconds(1), Duration.ofSeconds(1000)), bucket);
		for (int failure = 0; failure < 5; failure++) {
			assertThat(limiter.when("item")).isEqualTo(Duration.ofSeconds(1L << failure));
		}
		assertThat(bucket.tokens()).isEqualTo(95.0);
	}

	@Test
	void asksChildrenThatAreNotOurs() {
		CountingLimiter counting = new CountingLimiter(Duration.ofSeconds(3));
		LongestDelayRateLimiter<String> limiter = new LongestDelayRateLimiter<>(
				new ExponentialFailureRateLimiter<>(Duration.ofSeconds(1), Duration.ofSeconds(1000)), counting);
		assertThat(limiter.when("item")).isEqualTo(Duration.ofSeconds(3));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofSeconds(3));
		assertThat(limiter.when("item")).isEqualTo(Duration.ofSeconds(4));
		assertThat(counting.calls).isEqualTo(3);
	}

	@Test
	void numRequeuesIsTheLargestAmongChildren() {
		ExponentialFailureRateLimiter<String> first = new ExponentialFailureRateLimiter<>(Duration.ofMillis(1),
				Duration.ofSeconds(1));
		FastSlowRateLimiter<String> second = new FastSlowRateLimiter<>(Duration.ZERO, Duration.ZERO, 1);
		LongestDelayRateLimiter<String> limiter = new LongestDelayRateLimiter<>(first, second);
		limiter.when("item");
		second.when("item");
		second.when("item");
		assertThat(limiter.numRequeues("item")).isEqualTo(3);
		first.when("item");
		first.when("item");
		first.when("item");
		assertThat(limiter.numRequeues("item")).isEqualTo(4);
	}

	@Test
	void forgetReachesEveryChild() {
		ExponentialFailureRateLimiter<String> first = new ExponentialFailureRateLimiter<>(Duration.ofMillis(1),
				Duration.ofSeconds(1));
		FastSlowRateLimiter<String> second = new FastSlowRateLimiter<>(Duration.ZERO, Duration.ZERO, 1);
		LongestDelayRateLimiter<String> limiter = new LongestDelayRateLimiter<>(first, second);
		limiter.when("item");
		limiter.forget("item");
		assertThat(first.numRequeues("item")).isZero();
		assertThat(second.numRequeues("item")).isZero();
		assertThat(first.state().live()).containsEntry("trackedItems", 0);
		assertThat(second.state().live()).containsEntry("trackedItems", 0);
	}

	@Test
	void stateListsChildrenInOrder() {
		RateLimiterState state = new LongestDelayRateLimiter<String>(
				new ExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)),
				new TokenBucketRateLimiter<>(10, 100, this.ticker))
			.state();
		assertThat(state.type()).isEqualTo("max-of");
		assertThat(state.children()).extracting(RateLimiterState::type).containsExactly("exponential", "bucket");
	}

	@Test
	void rejectsNoChildren() {
		assertThatIllegalArgumentException().isThrownBy(LongestDelayRateLimiter::new).withMessageContaining("limiters");
	}

	/**
	 * A limiter of our SPI that is not a {@link ReservingRateLimiter}: a fixed delay,
	 * then one second longer from the third call on.
	 */
	static final class CountingLimiter implements RateLimiter<String> {

		private final Duration delay;

		int calls;

		CountingLimiter(Duration delay) {
			this.delay = delay;
		}

		@Override
		public synchronized Duration when(String item) {
			this.calls++;
			return (this.calls >= 3) ? this.delay.plusSeconds(1) : this.delay;
		}

		@Override
		public void forget(String item) {
		}

		@Override
		public int numRequeues(String item) {
			return 0;
		}

	}

}
