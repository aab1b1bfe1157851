package dev.kubereconciler.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.StandaloneController;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.with;

/**
 * The {@code cluster} label of a fleet manager's metrics, scraped as Prometheus sees
 * them: a controller that runs on the local cluster and two member clusters has a series
 * per cluster, {@code cluster=""} for the local one; with the label dropped, one series
 * sums them.
 */
class ClusterLabelMetricsTests {

	private final ManualClock scheduler = new ManualClock();

	private final Map<String, WorkQueueController> controllers = new ConcurrentHashMap<>();

	private final List<WorkQueueController> started = new ArrayList<>();

	@AfterEach
	void stop() {
		this.started.forEach((controller) -> controller.stop(Duration.ofSeconds(5)));
	}

	@Test
	void eachClusterHasItsOwnSeriesAndTheLocalOneAnEmptyCluster() {
		String scrape = reconcileInThreeClusters(true);
		assertThat(scrape).contains(
				"controller_runtime_reconcile_total{cluster=\"\",controller=\"widgets\",result=\"success\"} 1.0",
				"controller_runtime_reconcile_total{cluster=\"east\",controller=\"widgets\",result=\"success\"} 2.0",
				"controller_runtime_reconcile_total{cluster=\"west\",controller=\"widgets\",result=\"success\"} 3.0",
				"controller_runtime_reconcile_errors_total{cluster=\"west\",controller=\"widgets\"} 0.0",
				"controller_runtime_reconcile_time_seconds_count{cluster=\"east\",controller=\"widgets\"} 2",
				"workqueue_adds_total{cluster=\"\",controller=\"widgets\",name=\"widgets\"} 1.0",
				"workqueue_adds_total{cluster=\"east\",controller=\"widgets\",name=\"widgets\"} 2.0",
				"workqueue_adds_total{cluster=\"west\",controller=\"widgets\",name=\"widgets\"} 3.0",
				"workqueue_queue_duration_seconds_count{cluster=\"west\",controller=\"widgets\",name=\"widgets\"} 3",
				"workqueue_work_duration_seconds_count{cluster=\"west\",controller=\"widgets\",name=\"widgets\"} 3",
				"ratelimiter_delay_seconds_count{cluster=\"east\",controller=\"widgets\",source=\"manager\"} 0",
				// the controller's one queue is every cluster's
				"workqueue_depth{controller=\"widgets\",name=\"widgets\",priority=\"0\"} 0.0");
		// every series of a name has the label, as Prometheus' registry requires
		assertThat(scrape.lines().filter((line) -> line.startsWith("controller_runtime_reconcile_total{"))).hasSize(12)
			.allMatch((line) -> line.contains("cluster=\""));
	}

	@Test
	void withoutTheLabelTheClustersAreSummedInOneSeries() {
		String scrape = reconcileInThreeClusters(false);
		assertThat(scrape).contains("controller_runtime_reconcile_total{controller=\"widgets\",result=\"success\"} 6.0",
				"controller_runtime_reconcile_time_seconds_count{controller=\"widgets\"} 6",
				"workqueue_adds_total{controller=\"widgets\",name=\"widgets\"} 6.0");
		assertThat(scrape).doesNotContain("cluster=");
	}

	private String reconcileInThreeClusters(boolean clusterLabel) {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ControllerMetrics metrics = new ControllerMetrics(this.controllers::get, () -> null, () -> clusterLabel);
		metrics.bindTo(registry);
		WorkQueueController controller = StandaloneController.build(ControllerDefinition.builder(V1ConfigMap.class)
			.named("widgets")
			.clusters(ClusterScope.BOTH)
			.rateLimiter(RateLimiters.none())
			.reconcileTimeout(Duration.ZERO)
			.reconcile((request) -> Result.done()), this.scheduler, null, metrics);
		this.controllers.put(controller.name(), controller);
		controller.start();
		this.started.add(controller);
		controller.enqueue(new Request("ns", "a"));
		for (int i = 0; i < 2; i++) {
			controller.enqueue(new Request("ns", "e" + i, "east"));
		}
		for (int i = 0; i < 3; i++) {
			controller.enqueue(new Request("ns", "w" + i, "west"));
		}
		with().pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(1))
			.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> registry.find("controller.runtime.reconcile")
				.counters()
				.stream()
				.mapToDouble(Counter::count)
				.sum() == 6 && controller.queue().inFlight() == 0);
		return registry.scrape();
	}

}
