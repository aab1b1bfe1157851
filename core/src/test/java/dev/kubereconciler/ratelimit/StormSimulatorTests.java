package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link StormSimulator}.
 */
class StormSimulatorTests {

	@Test
	void bucketOfOneLetsOneAttemptPerSecondThroughAfterTheFirstInstant() {
		// t=0: items 0, 1, 2 try; item 0 gets the only token and retries at once, item 1
		// waits 1 s, item 2 2 s, item 0 3 s; from then on every attempt waits 3 s: one
		// per second
		StormSimulator.Storm storm = new StormSimulator(3, Duration.ofSeconds(5), Duration.ofSeconds(1))
			.run((ticker) -> RateLimiters.bucket(1, 1, ticker));
		assertThat(storm.attempts()).containsExactly(4L, 1L, 1L, 1L, 1L);
		assertThat(storm.total()).isEqualTo(8);
		assertThat(storm.bucketWidth()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void exponentialBackoffOfOneItemDoublesTheGaps() {
		// attempts at 0, 1, 3, 7 and 15 s
		StormSimulator.Storm storm = new StormSimulator(1, Duration.ofSeconds(10), Duration.ofSeconds(1))
			.run((ticker) -> RateLimiters.exponential(Duration.ofSeconds(1), Duration.ofSeconds(100)));
		assertThat(storm.attempts()).containsExactly(1L, 1L, 0L, 1L, 0L, 0L, 0L, 1L, 0L, 0L);
	}

	@Test
	void bucketSettlesAtExactlyQpsAfterTheBurst() {
		// 1000 first attempts and 100 free retries at t=0, then one attempt every 100 ms
		StormSimulator.Storm storm = new StormSimulator(1000, Duration.ofSeconds(10), Duration.ofSeconds(1))
			.run((ticker) -> RateLimiters.bucket(10, 100, ticker));
		List<Long> expected = new ArrayList<>(List.of(1109L));
		expected.addAll(Collections.nCopies(9, 10L));
		assertThat(storm.attempts()).isEqualTo(expected);
	}

	@Test
	void lastBucketMayBeNarrower() {
		StormSimulator.Storm storm = new StormSimulator(1, Duration.ofMillis(2500), Duration.ofSeconds(1))
			.run((ticker) -> RateLimiters.fastSlow(Duration.ofMillis(500), Duration.ofMillis(500), 1));
		assertThat(storm.attempts()).containsExactly(2L, 2L, 1L);
	}

	@Test
	void limiterThatNeverDelaysIsAbandoned() {
		StormSimulator simulator = new StormSimulator(2, Duration.ofSeconds(1), Duration.ofSeconds(1), 1000);
		assertThatIllegalStateException().isThrownBy(() -> simulator.run((ticker) -> RateLimiters.none()))
			.withMessageContaining("1000 attempts");
	}

	@Test
	void noItemsNoAttempts() {
		StormSimulator.Storm storm = new StormSimulator(0, Duration.ofSeconds(2), Duration.ofSeconds(1))
			.run(RateLimiters::controllerDefault);
		assertThat(storm.attempts()).containsExactly(0L, 0L);
	}

	@Test
	void rejectsInvalidArgumentsNamingThem() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new StormSimulator(-1, Duration.ofSeconds(1), Duration.ofSeconds(1)))
			.withMessageContaining("items");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new StormSimulator(1, Duration.ZERO, Duration.ofSeconds(1)))
			.withMessageContaining("horizon");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new StormSimulator(1, Duration.ofSeconds(1), Duration.ZERO))
			.withMessageContaining("bucketWidth");
	}

}
