package dev.kubereconciler.metrics;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WebhookMetrics}: counts with a {@link SimpleMeterRegistry},
 * controller-runtime's Prometheus names by scraping a {@link PrometheusMeterRegistry}.
 */
class WebhookMetricsTests {

	private static final String VALIDATE = "/validate-example-com-v1-widget";

	private static final String CONVERT = "/convert";

	@Test
	void requestsAreCountedByWebhookAndCodeAndTimedByWebhook() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		WebhookMetrics metrics = new WebhookMetrics();
		metrics.bindTo(registry);
		answer(metrics, VALIDATE, 200, TimeUnit.MILLISECONDS.toNanos(3));
		answer(metrics, VALIDATE, 200, TimeUnit.MILLISECONDS.toNanos(5));
		answer(metrics, VALIDATE, 400, TimeUnit.MILLISECONDS.toNanos(1));
		answer(metrics, CONVERT, 500, TimeUnit.MILLISECONDS.toNanos(7));
		assertThat(requests(registry, VALIDATE, "200")).isEqualTo(2.0);
		assertThat(requests(registry, VALIDATE, "400")).isEqualTo(1.0);
		assertThat(requests(registry, VALIDATE, "500")).isZero();
		assertThat(requests(registry, CONVERT, "500")).isEqualTo(1.0);
		Timer latency = registry.get("controller.runtime.webhook.latency").tag("webhook", VALIDATE).timer();
		assertThat(latency.count()).isEqualTo(3);
		assertThat(latency.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(9.0);
		assertThat(registry.get("controller.runtime.webhook.latency").tag("webhook", CONVERT).timer().count())
			.isEqualTo(1);
	}

	@Test
	void inFlightCountsTheRequestsStartedAndNotFinished() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		WebhookMetrics metrics = new WebhookMetrics();
		metrics.bindTo(registry);
		metrics.started(VALIDATE);
		metrics.started(VALIDATE);
		metrics.started(CONVERT);
		assertThat(inFlight(registry, VALIDATE)).isEqualTo(2.0);
		assertThat(inFlight(registry, CONVERT)).isEqualTo(1.0);
		metrics.finished(VALIDATE, 200, 1);
		assertThat(inFlight(registry, VALIDATE)).isEqualTo(1.0);
		metrics.finished(VALIDATE, 200, 1);
		metrics.finished(CONVERT, 200, 1);
		assertThat(inFlight(registry, VALIDATE)).isZero();
		assertThat(inFlight(registry, CONVERT)).isZero();
	}

	@Test
	void theWebhooksGivenStartWithZeroCountsForCodes200And500() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new WebhookMetrics(List.of(VALIDATE, CONVERT)).bindTo(registry);
		for (String path : List.of(VALIDATE, CONVERT)) {
			assertThat(requests(registry, path, "200")).isZero();
			assertThat(requests(registry, path, "500")).isZero();
			assertThat(inFlight(registry, path)).isZero();
			assertThat(registry.get("controller.runtime.webhook.latency").tag("webhook", path).timer().count())
				.isZero();
		}
	}

	@Test
	void nothingIsRecordedBeforeTheBinderIsBoundAndARequestStartedMeanwhileLeavesNoNegativeInFlight() {
		WebhookMetrics metrics = new WebhookMetrics();
		metrics.started(VALIDATE);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		metrics.bindTo(registry);
		assertThat(registry.getMeters()).isEmpty();
		metrics.finished(VALIDATE, 200, 1);
		assertThat(inFlight(registry, VALIDATE)).isZero();
		assertThat(requests(registry, VALIDATE, "200")).isEqualTo(1.0);
	}

	@Test
	void theMetersOfAWebhookAreRegisteredOnceAndReused() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		WebhookMetrics metrics = new WebhookMetrics();
		metrics.bindTo(registry);
		answer(metrics, VALIDATE, 200, 1);
		int meters = registry.getMeters().size();
		answer(metrics, VALIDATE, 200, 1);
		answer(metrics, VALIDATE, 500, 1);
		assertThat(registry.getMeters()).hasSize(meters);
	}

	@Test
	void prometheusNamesLabelsAndBucketsAreControllerRuntimes() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		WebhookMetrics metrics = new WebhookMetrics(List.of(VALIDATE));
		metrics.bindTo(registry);
		metrics.started(VALIDATE);
		metrics.started(VALIDATE);
		metrics.finished(VALIDATE, 200, TimeUnit.MILLISECONDS.toNanos(20));
		metrics.started(VALIDATE);
		metrics.finished(VALIDATE, 403, TimeUnit.SECONDS.toNanos(2));
		String scrape = registry.scrape();
		assertThat(scrape).contains("# TYPE controller_runtime_webhook_requests_total counter",
				"# HELP controller_runtime_webhook_requests_total Total number of admission requests by HTTP status code.",
				"controller_runtime_webhook_requests_total{code=\"200\",webhook=\"" + VALIDATE + "\"} 1.0",
				"controller_runtime_webhook_requests_total{code=\"403\",webhook=\"" + VALIDATE + "\"} 1.0",
				"controller_runtime_webhook_requests_total{code=\"500\",webhook=\"" + VALIDATE + "\"} 0.0",
				"# TYPE controller_runtime_webhook_requests_in_flight gauge",
				"# HELP controller_runtime_webhook_requests_in_flight Current number of admission requests being served.",
				"controller_runtime_webhook_requests_in_flight{webhook=\"" + VALIDATE + "\"} 1.0",
				"# TYPE controller_runtime_webhook_latency_seconds histogram",
				"# HELP controller_runtime_webhook_latency_seconds Histogram of the latency of processing admission requests",
				"controller_runtime_webhook_latency_seconds_bucket{webhook=\"" + VALIDATE + "\",le=\"0.01\"} 0",
				"controller_runtime_webhook_latency_seconds_bucket{webhook=\"" + VALIDATE + "\",le=\"0.1\"} 1",
				"controller_runtime_webhook_latency_seconds_bucket{webhook=\"" + VALIDATE + "\",le=\"1.0\"} 1",
				"controller_runtime_webhook_latency_seconds_bucket{webhook=\"" + VALIDATE + "\",le=\"10.0\"} 2",
				"controller_runtime_webhook_latency_seconds_bucket{webhook=\"" + VALIDATE + "\",le=\"1000.0\"} 2",
				"controller_runtime_webhook_latency_seconds_count{webhook=\"" + VALIDATE + "\"} 2");
		assertThat(
				scrape.lines().filter((line) -> line.startsWith("controller_runtime_webhook_latency_seconds_bucket")))
			.extracting((line) -> line.replaceAll(".*le=\"([^\"]+)\".*", "$1"))
			.containsExactly("1.0E-8", "1.0E-7", "1.0E-6", "1.0E-5", "1.0E-4", "0.001", "0.01", "0.1", "1.0", "10.0",
					"100.0", "1000.0", "+Inf");
	}

	private static void answer(WebhookMetrics metrics, String path, int code, long nanos) {
		metrics.started(path);
		metrics.finished(path, code, nanos);
	}

	private static double requests(SimpleMeterRegistry registry, String path, String code) {
		return registry.get("controller.runtime.webhook.requests")
			.tags("webhook", path, "code", code)
			.counter()
			.count();
	}

	private static double inFlight(SimpleMeterRegistry registry, String path) {
		return registry.get("controller.runtime.webhook.requests.in.flight").tag("webhook", path).gauge().value();
	}

}
