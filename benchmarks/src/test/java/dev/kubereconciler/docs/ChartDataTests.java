package dev.kubereconciler.docs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.docs.SharedBucketSimulation.Arrival;
import dev.kubereconciler.docs.SharedBucketSimulation.ControllerLoad;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.StormSimulator;
import dev.kubereconciler.time.Ticker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the charts plot the limiters' and the simulator's own numbers.
 */
class ChartDataTests {

	@Test
	void backoffDoublesFromFiveMillisecondsAndStaysAtOneThousandSecondsFromTheNineteenthFailure() {
		List<Duration> delays = ChartData.backoff(ChartData.BASE_DELAY, ChartData.MAX_DELAY, 25);
		assertThat(delays.subList(0, 4)).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10),
				Duration.ofMillis(20), Duration.ofMillis(40));
		assertThat(delays.get(17)).isEqualTo(Duration.ofMillis(655_360));
		assertThat(delays.subList(18, 25)).containsOnly(Duration.ofSeconds(1000));
	}

	@Test
	void stormOfThreeItemsOnABucketOfOneQpsAndBurstTwo() {
		// t=0: items 0 and 1 take the two tokens and retry at once; item 2 waits 1 s; the
		// retries of 0 and 1 wait 2 s and 3 s (beyond the horizon). t=1: item 2 waits 3
		// s. t=2: item 0 waits 3 s. Each later wait ends past the 3 s horizon.
		Map<String, List<Long>> series = ChartData.storm(3, Duration.ofSeconds(3), Duration.ofSeconds(1),
				Map.of("bucket", (ticker) -> RateLimiters.bucket(1, 2, ticker)));
		assertThat(series.get("bucket")).containsExactly(5L, 1L, 1L);
	}

	@Test
	void stormOfTwoItemsUnderExponentialBackoffAlone() {
		// one item retries at 0, 5, 15, 35, 75, 155, 315 and 635 ms, then at 1275 ms
		Map<String, List<Long>> series = ChartData.storm(2, Duration.ofSeconds(1), Duration.ofMillis(100),
				Map.of("exponential", ChartData.stormLimiters().get(ChartData.EXPONENTIAL_ALONE)));
		assertThat(series.get("exponential")).containsExactly(10L, 2L, 0L, 2L, 0L, 0L, 2L, 0L, 0L, 0L);
	}

	@Test
	void stormChartSeriesAreTheSimulatorsNumbers() {
		Map<String, List<Long>> series = ChartData.storm(10_000, Duration.ofSeconds(300), Duration.ofSeconds(1),
				ChartData.stormLimiters());
		StormSimulator simulator = new StormSimulator(10_000, Duration.ofSeconds(300), Duration.ofSeconds(1));
		assertThat(series.get(ChartData.EXPONENTIAL_ALONE)).isEqualTo(simulator
			.run((ticker) -> RateLimiters.<Integer>exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)))
			.attempts());
		assertThat(series.get(ChartData.BUCKET_ALONE))
			.isEqualTo(simulator.run((ticker) -> RateLimiters.<Integer>bucket(10, 100, ticker)).attempts());
		assertThat(series.get(ChartData.DEFAULT_MAX_OF)).isEqualTo(
				simulator.run((Function<Ticker, RateLimiter<Integer>>) RateLimiters::controllerDefault).attempts());
		// eight attempts per item in the first second (0 to 635 ms), then one at 1.275 s
		assertThat(series.get(ChartData.EXPONENTIAL_ALONE).subList(0, 3)).containsExactly(80_000L, 10_000L, 10_000L);
		// 10,000 first attempts, 100 free retries, and 9 paid-for retries at 0.1 to 0.9
		// s; from then on exactly the bucket's 10 per second
		assertThat(series.get(ChartData.BUCKET_ALONE).get(0)).isEqualTo(10_109L);
		assertThat(series.get(ChartData.BUCKET_ALONE).subList(1, 300)).containsOnly(10L);
		assertThat(series.get(ChartData.DEFAULT_MAX_OF)).isEqualTo(series.get(ChartData.BUCKET_ALONE));
	}

	@Test
	void twoControllersWithOneWorkerEachTakeTurnsAtABucketOfOneQps() {
		SharedBucketSimulation.Result result = new SharedBucketSimulation(1, 1, Duration.ZERO, Duration.ofSeconds(4),
				Duration.ofSeconds(1), Duration.ofSeconds(1))
			.controller(new ControllerLoad("a", 1, List.of(new Arrival(Duration.ZERO, 2))))
			.controller(new ControllerLoad("b", 1, List.of(new Arrival(Duration.ZERO, 2))))
			.run();
		// a's first key takes the only token; b's waits 1 s; a's second, reserved next, 2
		// s; b's second, reserved at 1 s, waits until 3 s
		assertThat(result.admissions().get("a")).containsExactly(1L, 0L, 1L, 0L);
		assertThat(result.admissions().get("b")).containsExactly(0L, 1L, 0L, 1L);
		assertThat(result.tokens()).containsExactly(-2.0, -2.0, -1.0, 0.0, 1.0);
	}

	@Test
	void sharedBucketChartAdmitsAtMostBurstPlusQpsTimesTAndOwesAtMostOneTokenPerWorker() {
		SharedBucketSimulation.Result result = ChartData.sharedBucketScenario().run();
		List<Long> total = new ArrayList<>();
		result.admissions().values().forEach((counts) -> {
			for (int i = 0; i < counts.size(); i++) {
				if (total.size() <= i) {
					total.add(0L);
				}
				total.set(i, total.get(i) + counts.get(i));
			}
		});
		for (int from = 0; from < total.size(); from++) {
			long admitted = 0;
			for (int to = from; to < total.size(); to++) {
				admitted += total.get(to);
				// seconds from..to span (to - from + 1) s
				assertThat(admitted).isLessThanOrEqualTo(20 + 10 * (to - from + 1));
			}
		}
		// a worker holds one reservation at a time, and there are 2 + 4 + 2 workers
		assertThat(result.tokens()).allSatisfy((tokens) -> assertThat(tokens).isBetween(-8.0, 20.0));
		assertThat(result.tokens()).anySatisfy((tokens) -> assertThat(tokens).isNegative());
	}

}
