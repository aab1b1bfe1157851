package dev.kubereconciler.docs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.kubereconciler.docs.SharedBucketSimulation.Arrival;
import dev.kubereconciler.docs.SharedBucketSimulation.ControllerLoad;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.StormSimulator;
import dev.kubereconciler.time.Ticker;

/**
 * The series that the documentation's charts plot, computed by the limiters themselves,
 * so that a test can hold them against the simulator.
 */
public final class ChartData {

	/** client-go's per-item base delay. */
	public static final Duration BASE_DELAY = Duration.ofMillis(5);

	/** client-go's per-item max delay. */
	public static final Duration MAX_DELAY = Duration.ofSeconds(1000);

	/** client-go's controller bucket rate. */
	public static final double QPS = 10;

	/** client-go's controller bucket burst. */
	public static final int BURST = 100;

	/** The storm chart's series of per-item backoff alone. */
	public static final String EXPONENTIAL_ALONE = "exponential 5ms..1000s alone";

	/** The storm chart's series of the bucket alone. */
	public static final String BUCKET_ALONE = "bucket 10 qps, burst 100 alone";

	/** The storm chart's series of the controller default. */
	public static final String DEFAULT_MAX_OF = "default: max-of both (the bucket decides)";

	private ChartData() {
	}

	/**
	 * Return the delay after each failure of one item, from the first to the
	 * {@code failures}th.
	 * @param baseDelay the exponential limiter's base delay
	 * @param maxDelay the exponential limiter's max delay
	 * @param failures how many failures
	 * @return the delays, in failure order
	 */
	public static List<Duration> backoff(Duration baseDelay, Duration maxDelay, int failures) {
		RateLimiter<String> limiter = RateLimiters.exponential(baseDelay, maxDelay);
		List<Duration> delays = new ArrayList<>(failures);
		for (int i = 0; i < failures; i++) {
			delays.add(limiter.when("item"));
		}
		return delays;
	}

	/**
	 * Return the attempts per bucket of a storm of items that all fail from t=0, under
	 * each of the given limiters.
	 * @param items how many items fail
	 * @param horizon how long to simulate
	 * @param bucketWidth the width of a bucket
	 * @param limiters the limiters by series name, each made from the simulator's clock
	 * @return attempts per bucket by series name
	 */
	public static Map<String, List<Long>> storm(int items, Duration horizon, Duration bucketWidth,
			Map<String, Function<Ticker, RateLimiter<Integer>>> limiters) {
		StormSimulator simulator = new StormSimulator(items, horizon, bucketWidth);
		Map<String, List<Long>> series = new LinkedHashMap<>();
		limiters.forEach((name, factory) -> series.put(name, simulator.run(factory).attempts()));
		return series;
	}

	/**
	 * The limiters of the storm chart: per-item backoff alone, the bucket alone, and the
	 * controller default that takes the longer of both.
	 * @return the limiters by series name
	 */
	public static Map<String, Function<Ticker, RateLimiter<Integer>>> stormLimiters() {
		Map<String, Function<Ticker, RateLimiter<Integer>>> limiters = new LinkedHashMap<>();
		limiters.put(EXPONENTIAL_ALONE, (ticker) -> RateLimiters.exponential(BASE_DELAY, MAX_DELAY));
		limiters.put(BUCKET_ALONE, (ticker) -> RateLimiters.bucket(QPS, BURST, ticker));
		limiters.put(DEFAULT_MAX_OF, RateLimiters::controllerDefault);
		return limiters;
	}

	/**
	 * The scenario of the shared-bucket chart: a manager bucket of 10 qps and a burst of
	 * 20 for three controllers. configmaps gets a steady 4 keys per second; widgets gets
	 * a storm of 300 keys at t=10 s; secrets gets 100 keys at t=30 s. Reconciles take 50
	 * ms.
	 * @return the simulation
	 */
	public static SharedBucketSimulation sharedBucketScenario() {
		Duration horizon = Duration.ofSeconds(60);
		return new SharedBucketSimulation(10, 20, Duration.ofMillis(50), horizon, Duration.ofSeconds(1),
				Duration.ofMillis(100))
			.controller(ControllerLoad.steady("configmaps (2 workers, 4 keys/s)", 2, 4, horizon))
			.controller(new ControllerLoad("widgets (4 workers, 300 keys at 10 s)", 4,
					List.of(new Arrival(Duration.ofSeconds(10), 300))))
			.controller(new ControllerLoad("secrets (2 workers, 100 keys at 30 s)", 2,
					List.of(new Arrival(Duration.ofSeconds(30), 100))));
	}

}
