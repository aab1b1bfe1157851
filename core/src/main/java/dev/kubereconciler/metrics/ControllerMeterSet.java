package dev.kubereconciler.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

/**
 * The meters of one controller. Names are Micrometer's dotted form of
 * controller-runtime's: the Prometheus registry adds {@code _total} to counters and
 * {@code _seconds} to timers and to gauges with a {@code seconds} base unit. Help texts
 * are controller-runtime's.
 */
final class ControllerMeterSet {

	/** controller-runtime's {@code controller_runtime_reconcile_time_seconds} buckets. */
	static final Duration[] RECONCILE_BUCKETS = seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4,
			0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15,
			20, 25, 30, 40, 50, 60);

	/**
	 * controller-runtime's work queue buckets: {@code ExponentialBuckets(10e-9, 10, 12)}.
	 */
	static final Duration[] QUEUE_BUCKETS = seconds(1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000);

	/**
	 * Limiter delay buckets, from the 5 ms of the default backoff's first step to its
	 * 1000 s cap.
	 */
	static final Duration[] DELAY_BUCKETS = seconds(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
			60, 120, 300, 600, 1000);

	private final MeterRegistry registry;

	private final Tags controllerTags;

	private final Map<String, DependentMeterSet> dependents = new ConcurrentHashMap<>();

	private final Tags queueTags;

	private final boolean clusterLabel;

	// the meters of each cluster's keys, by cluster name; one entry, "", when unlabelled
	private final Map<String, ReconcileMeterSet> clusters = new ConcurrentHashMap<>();

	final DepthMeterSet depthByPriority;

	ControllerMeterSet(MeterRegistry registry, String name, Supplier<Controller> controller, boolean clusterLabel) {
		Tags controllerTags = Tags.of("controller", name);
		// controller-runtime names each queue after its controller and labels it
		// with both
		Tags queueTags = Tags.of("name", name, "controller", name);
		this.queueTags = queueTags;
		this.clusterLabel = clusterLabel;
		gauges(registry, controllerTags, queueTags, controller);
		this.depthByPriority = new DepthMeterSet(registry, queueTags, controller);
		registerBucket(registry, name, controller.get());
		this.registry = registry;
		this.controllerTags = controllerTags;
		Controller current = controller.get();
		if (current != null) {
			current.definition().updateFilters().keySet().forEach(this::updateFilterDropped);
			current.definition().sources().forEach((source) -> sourceKeys(source.name()));
		}
		// zero-initialised as controller-runtime's, the local cluster's even for a
		// controller of the fleet only (0 is true there); a member cluster's on its first
		// key
		forCluster("");
	}

	/**
	 * Return the meters of the controller's keys of a cluster, registered on its first
	 * key.
	 * @param cluster the cluster's name, empty for the local one
	 * @return the meters, the same for every cluster when the cluster is not a label
	 */
	ReconcileMeterSet forCluster(String cluster) {
		String label = this.clusterLabel ? cluster : "";
		ReconcileMeterSet meters = this.clusters.get(label);
		return (meters != null) ? meters
				: this.clusters.computeIfAbsent(label,
						(name) -> this.clusterLabel
								? new ReconcileMeterSet(this.registry, this.controllerTags.and("cluster", name),
										this.queueTags.and("cluster", name))
								: new ReconcileMeterSet(this.registry, this.controllerTags, this.queueTags));
	}

	/**
	 * Return the meters of a dependent, registered on its first apply or prune: the
	 * architecture rule keeps this package off the dependent declarations, and a prune
	 * may name a dependent that is no longer declared anyway.
	 */
	DependentMeterSet dependent(String name) {
		DependentMeterSet meters = this.dependents.get(name);
		return (meters != null) ? meters : this.dependents.computeIfAbsent(name,
				(dependent) -> new DependentMeterSet(this.registry, this.controllerTags, dependent));
	}

	private Counter updateFilterDropped(String filter) {
		return counter(this.registry, "kube.reconciler.event.filter.dropped",
				"Total number of updates of primary objects that an event filter dropped, per controller and filter",
				this.controllerTags.and("filter", filter));
	}

	void updateFiltered(String filter) {
		// registered again only on the first drop of a filter the definition did not name
		updateFilterDropped(filter).increment();
	}

	Counter sourceKeys(String source) {
		return counter(this.registry, "kube.reconciler.source.keys",
				"Total number of keys that a source of a controller added to its queue, per controller and source",
				this.controllerTags.and("source", source));
	}

	private static void registerBucket(MeterRegistry registry, String name, Controller controller) {
		List<TokenBucketRateLimiter<?>> buckets = (controller != null) ? RateLimiters.buckets(controller.rateLimiter())
				: List.of();
		TokenBucketRateLimiter<?> bucket = buckets.isEmpty() ? null : buckets.get(0);
		// the manager's bucket owns limiter="manager"; a controller of that name must not
		// shadow it
		if (bucket != null && !TokenMeterSet.MANAGER_LIMITER.equals(name)) {
			TokenMeterSet.tokens(registry, name, () -> bucket);
		}
	}

	static Counter counter(MeterRegistry registry, String name, String description, Tags tags) {
		return Counter.builder(name).description(description).tags(tags).register(registry);
	}

	static Timer timer(MeterRegistry registry, String name, String description, Tags tags, Duration[] buckets) {
		return Timer.builder(name)
			.description(description)
			.tags(tags)
			.serviceLevelObjectives(HistogramBuckets.forRegistry(registry, buckets))
			.register(registry);
	}

	// the gauges read the controller when scraped, so nothing keeps them
	private static void gauges(MeterRegistry registry, Tags controllerTags, Tags queueTags,
			Supplier<Controller> controller) {
		gauge(registry, "controller.runtime.max.concurrent.reconciles",
				"Maximum number of concurrent reconciles per controller", controllerTags, null, controller,
				(c) -> c.definition().maxConcurrentReconciles());
		gauge(registry, "controller.runtime.active.workers", "Number of currently used workers per controller",
				controllerTags, null, controller, Controller::activeWorkers);
		gauge(registry, "workqueue.unfinished.work",
				"How many seconds of work has been done that is in progress and hasn't been observed by "
						+ "work_duration. Large values indicate stuck threads. One can deduce the number of stuck "
						+ "threads by observing the rate at which this increases.",
				queueTags, "seconds", controller, (c) -> c.queue().unfinishedWorkNanos() / 1e9);
		gauge(registry, "workqueue.longest.running.processor",
				"How many seconds has the longest running processor for workqueue been running.", queueTags, "seconds",
				controller, (c) -> c.queue().longestRunningProcessorNanos() / 1e9);
		gauge(registry, "workqueue.waiting",
				"Current number of keys in workqueue waiting out a delay before they become ready", queueTags, null,
				controller, (c) -> c.queue().waiting());
	}

	private static void gauge(MeterRegistry registry, String name, String description, Tags tags,
			@Nullable String baseUnit, Supplier<Controller> controller, ToDoubleFunction<Controller> value) {
		Gauge.builder(name, () -> {
			Controller current = controller.get();
			return (current != null) ? value.applyAsDouble(current) : Double.NaN;
		}).description(description).tags(tags).baseUnit(baseUnit).strongReference(true).register(registry);
	}

	static Duration[] seconds(double... values) {
		Duration[] durations = new Duration[values.length];
		for (int i = 0; i < values.length; i++) {
			durations[i] = Duration.ofNanos(Math.round(values[i] * 1e9));
		}
		return durations;
	}

}
