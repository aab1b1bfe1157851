package dev.kubereconciler.metrics;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.ratelimit.RateLimiters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for the dependent meters of {@link ControllerMetrics}: counts with a
 * {@link SimpleMeterRegistry}, Prometheus names by scraping a
 * {@link PrometheusMeterRegistry}.
 */
class DependentMetricsTests {

	private final Map<String, WorkQueueController> controllers = new ConcurrentHashMap<>();

	private final ControllerMetrics metrics = new ControllerMetrics(this.controllers::get,
			() -> RateLimiters.bucket(Double.POSITIVE_INFINITY, 1));

	@Test
	void appliesAreCountedByWhetherTheyChangedTheObjectAndDriftCorrectionsApart() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		this.metrics.bindTo(registry);
		this.metrics.dependentApplied("widget", "config", true, false);
		this.metrics.dependentApplied("widget", "config", true, true);
		this.metrics.dependentApplied("widget", "config", false, false);
		this.metrics.dependentApplied("widget", "config", false, false);
		this.metrics.dependentApplied("widget", "config", false, false);
		this.metrics.dependentApplied("widget", "secret", true, false);
		assertThat(applies(registry, "config", "changed")).isEqualTo(2.0);
		assertThat(applies(registry, "config", "unchanged")).isEqualTo(3.0);
		assertThat(counter(registry, "kube.reconciler.dependent.drift.corrections", "config")).isEqualTo(1.0);
		assertThat(applies(registry, "secret", "changed")).isEqualTo(1.0);
		assertThat(counter(registry, "kube.reconciler.dependent.drift.corrections", "secret")).isZero();
	}

	@Test
	void prunesAndTimeToReadyAreRecordedPerDependent() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		this.metrics.bindTo(registry);
		this.metrics.dependentPruned("widget", "config");
		this.metrics.dependentPruned("widget", "config");
		this.metrics.dependentReady("widget", "deployment", Duration.ofSeconds(42));
		this.metrics.dependentReady("widget", "deployment", Duration.ofSeconds(8));
		assertThat(counter(registry, "kube.reconciler.dependent.prunes", "config")).isEqualTo(2.0);
		Timer ready = registry.get("kube.reconciler.dependent.time.to.ready")
			.tags("controller", "widget", "dependent", "deployment")
			.timer();
		assertThat(ready.count()).isEqualTo(2);
		assertThat(ready.totalTime(TimeUnit.SECONDS)).isEqualTo(50.0);
		assertThat(ready.max(TimeUnit.SECONDS)).isEqualTo(42.0);
	}

	@Test
	void theMetersOfADependentAreRegisteredOnceAndReused() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		this.metrics.bindTo(registry);
		this.metrics.dependentApplied("widget", "config", true, false);
		int meters = registry.getMeters().size();
		this.metrics.dependentApplied("widget", "config", false, false);
		this.metrics.dependentPruned("widget", "config");
		this.metrics.dependentReady("widget", "config", Duration.ofSeconds(1));
		assertThat(registry.getMeters()).hasSize(meters);
	}

	@Test
	void nothingIsRecordedBeforeTheBinderIsBound() {
		assertThatNoException().isThrownBy(() -> {
			this.metrics.dependentApplied("widget", "config", true, true);
			this.metrics.dependentPruned("widget", "config");
			this.metrics.dependentReady("widget", "config", Duration.ofSeconds(1));
		});
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		this.metrics.bindTo(registry);
		assertThat(registry.find("kube.reconciler.dependent.applies").counters()).isEmpty();
	}

	@Test
	void prometheusNamesAreKubeReconcilerDependentAndEveryMeterOfADependentStartsWithItsFirstApply() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		this.metrics.bindTo(registry);
		assertThat(registry.scrape()).doesNotContain("kube_reconciler_dependent");
		this.metrics.dependentApplied("cm", "token", false, false);
		assertThat(registry.scrape()).contains("# TYPE kube_reconciler_dependent_applies_total counter",
				"kube_reconciler_dependent_applies_total{controller=\"cm\",dependent=\"token\",result=\"changed\"} 0.0",
				"kube_reconciler_dependent_applies_total{controller=\"cm\",dependent=\"token\",result=\"unchanged\"} 1.0",
				"# TYPE kube_reconciler_dependent_drift_corrections_total counter",
				"kube_reconciler_dependent_drift_corrections_total{controller=\"cm\",dependent=\"token\"} 0.0",
				"# TYPE kube_reconciler_dependent_prunes_total counter",
				"kube_reconciler_dependent_prunes_total{controller=\"cm\",dependent=\"token\"} 0.0",
				"# TYPE kube_reconciler_dependent_time_to_ready_seconds histogram",
				"kube_reconciler_dependent_time_to_ready_seconds_count{controller=\"cm\",dependent=\"token\"} 0");
		this.metrics.dependentApplied("cm", "token", true, true);
		this.metrics.dependentReady("cm", "token", Duration.ofSeconds(3));
		// a prune names what the objects were applied under, which may be gone from the
		// code
		this.metrics.dependentPruned("cm", "old-token");
		assertThat(registry.scrape()).contains(
				"kube_reconciler_dependent_applies_total{controller=\"cm\",dependent=\"token\",result=\"changed\"} 1.0",
				"kube_reconciler_dependent_drift_corrections_total{controller=\"cm\",dependent=\"token\"} 1.0",
				"kube_reconciler_dependent_time_to_ready_seconds_bucket{controller=\"cm\",dependent=\"token\",le=\"5.0\"} 1",
				"kube_reconciler_dependent_time_to_ready_seconds_bucket{controller=\"cm\",dependent=\"token\",le=\"2.5\"} 0",
				"kube_reconciler_dependent_prunes_total{controller=\"cm\",dependent=\"old-token\"} 1.0");
	}

	@Test
	void aMeterNameTakenWithOtherTagsDoesNotFailTheCaller() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		Counter.builder("kube.reconciler.dependent.prunes").tag("team", "a").register(registry);
		this.metrics.bindTo(registry);
		assertThatNoException().isThrownBy(() -> {
			this.metrics.dependentPruned("cm", "config");
			this.metrics.dependentApplied("cm", "config", true, false);
			this.metrics.dependentReady("cm", "config", Duration.ofSeconds(1));
		});
	}

	private static double applies(SimpleMeterRegistry registry, String dependent, String result) {
		return registry.get("kube.reconciler.dependent.applies")
			.tags("controller", "widget", "dependent", dependent, "result", result)
			.counter()
			.count();
	}

	private static double counter(SimpleMeterRegistry registry, String name, String dependent) {
		Counter counter = registry.find(name).tags("controller", "widget", "dependent", dependent).counter();
		return (counter != null) ? counter.count() : 0;
	}

}
