package dev.kubereconciler.ratelimit;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubereconciler.time.ManualClock;

/**
 * Tests for {@link TokenBucketRateLimiter}.
 */
class TokenBucketRateLimiterTests {

	private final ManualClock ticker = new ManualClock();

	private final TokenBucketRateLimiter<String> bucket = new TokenBucketRateLimiter<>(10, 100, this.ticker);

	@Test
	void fullBucketLetsBurstThroughThenChargesOneTenthSecondPerCall() {
		for (int call = 1; call <= 100; call++) {
			assertThat(this.bucket.when("item-" + call)).isSameAs(Duration.ZERO);
		}
		assertThat(this.bucket.when("item-101")).isEqualTo(Duration.ofMillis(100));
		assertThat(this.bucket.when("item-102")).isEqualTo(Duration.ofMillis(200));
		assertThat(this.bucket.tokens()).isEqualTo(-2.0);
	}

	@Test
	void callKAtOneInstantWaitsKMinusBurstTenthsOfASecond() {
		for (int call = 1; call <= 1000; call++) {
			long expectedMillis = Math.max(0, call - 100) * 100L;
			assertThat(this.bucket.when("item")).as("call %d", call).isEqualTo(Duration.ofMillis(expectedMillis));
		}
		assertThat(this.bucket.tokens()).isEqualTo(-900.0);
	}

	@Test
	void refillsContinuouslyBetweenCalls() {
		drain(100);
		this.ticker.advance(Duration.ofMillis(50));
		assertThat(this.bucket.tokens()).isEqualTo(0.5);
		assertThat(this.bucket.when("item")).isEqualTo(Duration.ofMillis(50));
		assertThat(this.bucket.tokens()).isEqualTo(-0.5);
	}

	@Test
	void refillRepaysDebtAtQps() {
		drain(110);
		assertThat(this.bucket.tokens()).isEqualTo(-10.0);
		this.ticker.advance(Duration.ofSeconds(1));
		assertThat(this.bucket.tokens()).isEqualTo(0.0);
		assertThat(this.bucket.when("item")).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void refillStopsAtBurst() {
		drain(100);
		this.ticker.advance(Duration.ofHours(1));
		assertThat(this.bucket.tokens()).isEqualTo(100.0);
		drain(100);
		assertThat(this.bucket.when("item")).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void forgetIsANoOpAndNumRequeuesIsZero() {
		drain(101);
		this.bucket.forget("item");
		assertThat(this.bucket.numRequeues("item")).isZero();
		assertThat(this.bucket.tokens()).isEqualTo(-1.0);
	}

	@Test
	void setRateKeepsTokensRefilledAtTheOldRate() {
		drain(100);
		this.ticker.advance(Duration.ofSeconds(1));
		this.bucket.setRate(100);
		assertThat(this.bucket.tokens()).isEqualTo(10.0);
		assertThat(this.bucket.qps()).isEqualTo(100.0);
		this.ticker.advance(Duration.ofMillis(100));
		assertThat(this.bucket.tokens()).isEqualTo(20.0);
	}

	@Test
	void setRateChangesThePriceOfDebt() {
		drain(110);
		this.bucket.setRate(20);
		this.ticker.advance(Duration.ofMillis(500));
		assertThat(this.bucket.tokens()).isEqualTo(0.0);
		assertThat(this.bucket.when("item")).isEqualTo(Duration.ofMillis(50));
	}

	@Test
	void setBurstDropsTokensAboveTheNewCapacity() {
		this.bucket.setBurst(10);
		assertThat(this.bucket.burst()).isEqualTo(10);
		assertThat(this.bucket.tokens()).isEqualTo(10.0);
		drain(10);
		assertThat(this.bucket.when("item")).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void setBurstUpwardsRefillsToTheNewCapacity() {
		drain(90);
		this.bucket.setBurst(200);
		assertThat(this.bucket.tokens()).isEqualTo(10.0);
		this.ticker.advance(Duration.ofHours(1));
		assertThat(this.bucket.tokens()).isEqualTo(200.0);
	}

	@Test
	void unlimitedRateNeverDelaysAndReportsAFullBucket() {
		TokenBucketRateLimiter<String> unlimited = new TokenBucketRateLimiter<>(Double.POSITIVE_INFINITY, 1,
				this.ticker);
		for (int call = 0; call < 1000; call++) {
			assertThat(unlimited.when("item")).isSameAs(Duration.ZERO);
		}
		assertThat(unlimited.tokens()).isEqualTo(1.0);
		assertThat(unlimited.state().config()).containsEntry("qps", "+Inf").containsEntry("burst", 1);
	}

	@Test
	void limitingAnUnlimitedBucketStartsItFull() {
		TokenBucketRateLimiter<String> bucket = new TokenBucketRateLimiter<>(Double.POSITIVE_INFINITY, 2, this.ticker);
		bucket.when("item");
		bucket.setRate(10);
		assertThat(bucket.when("item")).isSameAs(Duration.ZERO);
		assertThat(bucket.when("item")).isSameAs(Duration.ZERO);
		assertThat(bucket.when("item")).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void rejectsInvalidArgumentsNamingThem() {
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucketRateLimiter<>(0, 1, this.ticker))
			.withMessageContaining("qps")
			.withMessageContaining("0.0");
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucketRateLimiter<>(-5, 1, this.ticker))
			.withMessageContaining("qps")
			.withMessageContaining("-5.0");
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucketRateLimiter<>(Double.NaN, 1, this.ticker))
			.withMessageContaining("qps")
			.withMessageContaining("NaN");
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucketRateLimiter<>(10, 0, this.ticker))
			.withMessageContaining("burst")
			.withMessageContaining("0");
		assertThatIllegalArgumentException().isThrownBy(() -> this.bucket.setRate(-1)).withMessageContaining("qps");
		assertThatIllegalArgumentException().isThrownBy(() -> this.bucket.setBurst(-3))
			.withMessageContaining("burst")
			.withMessageContaining("-3");
	}

	@Test
	void stateReportsConfigAndTokens() {
		drain(102);
		RateLimiterState state = this.bucket.state();
		assertThat(state.type()).isEqualTo("bucket");
		assertThat(state.config()).containsExactly(Map.entry("qps", 10.0), Map.entry("burst", 100));
		assertThat(state.live()).containsExactly(Map.entry("tokens", -2.0));
		assertThat(state.children()).isEmpty();
	}

	@Test
	void reservationReportsItsDelay() {
		drain(100);
		BucketReservation reservation = this.bucket.reserve();
		assertThat(reservation.isGranted()).isTrue();
		assertThat(reservation.delay()).isEqualTo(Duration.ofMillis(100));
		assertThat(reservation.delayNanos()).isEqualTo(100_000_000L);
		assertThat(reservation.timeToAct()).isEqualTo(this.ticker.read() + 100_000_000L);
	}

	@Test
	void cancelBeforeTimeToActGivesTheTokenBack() {
		drain(100);
		BucketReservation reservation = this.bucket.reserve();
		this.ticker.advance(Duration.ofMillis(50));
		reservation.cancel();
		assertThat(this.bucket.tokens()).isEqualTo(0.5);
	}

	@Test
	void cancelOfAnImmediateReservationAtTheSameInstantGivesTheTokenBack() {
		BucketReservation reservation = this.bucket.reserve();
		assertThat(reservation.delay()).isSameAs(Duration.ZERO);
		reservation.cancel();
		assertThat(this.bucket.tokens()).isEqualTo(100.0);
	}

	@Test
	void cancelAfterTimeToActHasNoEffect() {
		drain(100);
		BucketReservation reservation = this.bucket.reserve();
		this.ticker.advance(Duration.ofMillis(150));
		reservation.cancel();
		assertThat(this.bucket.tokens()).isEqualTo(0.5);
	}

	@Test
	void cancelKeepsTokensReservedLaterTaken() {
		TokenBucketRateLimiter<String> bucket = new TokenBucketRateLimiter<>(10, 1, this.ticker);
		bucket.reserve();
		BucketReservation second = bucket.reserve();
		BucketReservation third = bucket.reserve();
		assertThat(second.delay()).isEqualTo(Duration.ofMillis(100));
		assertThat(third.delay()).isEqualTo(Duration.ofMillis(200));
		second.cancel();
		assertThat(bucket.tokens()).isEqualTo(-2.0);
		third.cancel();
		assertThat(bucket.tokens()).isEqualTo(-1.0);
		// with the later reservation gone, the earlier one can now come back
		second.cancel();
		assertThat(bucket.tokens()).isEqualTo(0.0);
		assertThat(bucket.when("item")).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void cancelGivesATokenBackAtMostOnce() {
		drain(100);
		BucketReservation reservation = this.bucket.reserve();
		reservation.cancel();
		reservation.cancel();
		assertThat(this.bucket.tokens()).isEqualTo(0.0);
	}

	@Test
	void cancelNeverOverfillsTheBucket() {
		BucketReservation reservation = this.bucket.reserve();
		this.bucket.setBurst(99);
		reservation.cancel();
		assertThat(this.bucket.tokens()).isEqualTo(99.0);
	}

	@Test
	void reservationBeyondTheHorizonTakesNothing() {
		drain(100);
		BucketReservation reservation = this.bucket.reserve(Duration.ofMillis(50));
		assertThat(reservation.isGranted()).isFalse();
		assertThat(reservation.delay()).isEqualTo(Duration.ofMillis(100));
		assertThat(this.bucket.tokens()).isEqualTo(0.0);
		reservation.cancel();
		assertThat(this.bucket.tokens()).isEqualTo(0.0);
		assertThat(this.bucket.reserve(Duration.ofMillis(100)).isGranted()).isTrue();
		assertThat(this.bucket.tokens()).isEqualTo(-1.0);
	}

	@Test
	void concurrentCallersAtOneInstantEachGetTheirOwnToken() throws Exception {
		int threads = 8;
		int calls = 10_000;
		ConcurrentLinkedQueue<Long> delays = new ConcurrentLinkedQueue<>();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int thread = 0; thread < threads; thread++) {
				futures.add(executor.submit(() -> {
					start.await();
					for (int call = 0; call < calls; call++) {
						delays.add(this.bucket.whenNanos("item"));
					}
					return null;
				}));
			}
			start.countDown();
			await().atMost(Duration.ofSeconds(30)).until(() -> futures.stream().allMatch(Future::isDone));
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(this.bucket.tokens()).isEqualTo(100.0 - threads * calls);
		// every debt position was handed out exactly once: 0 for the burst, then 100
		// ms steps
		List<Long> sorted = delays.stream().sorted().toList();
		assertThat(sorted).hasSize(threads * calls);
		for (int i = 0; i < sorted.size(); i++) {
			assertThat(sorted.get(i)).isEqualTo(Math.max(0, i + 1 - 100) * 100_000_000L);
		}
	}

	@Test
	void zeroDelayPathAllocatesNothing() {
		assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
		TokenBucketRateLimiter<String> bucket = new TokenBucketRateLimiter<>(10, Integer.MAX_VALUE, this.ticker);
		bucket.when("item");
		long threadId = Thread.currentThread().getId();
		long before = threads.getThreadAllocatedBytes(threadId);
		for (int call = 0; call < 10_000; call++) {
			bucket.when("item");
		}
		long allocated = threads.getThreadAllocatedBytes(threadId) - before;
		// a Duration per call would be hundreds of kilobytes; allow for the probe itself
		assertThat(allocated).isLessThan(1024);
	}

	private void drain(int calls) {
		for (int call = 0; call < calls; call++) {
			this.bucket.when("drain");
		}
	}

}
