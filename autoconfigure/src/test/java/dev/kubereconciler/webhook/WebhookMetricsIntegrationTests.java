package dev.kubereconciler.webhook;

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerMetricsAutoConfiguration;
import dev.kubereconciler.autoconfigure.webhook.KubeReconcilerWebhookAutoConfiguration;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The webhook server's metrics in a Prometheus scrape, with controller-runtime's names,
 * after the real API server called the webhooks.
 */
@KubernetesTest
class WebhookMetricsIntegrationTests {

	private static final String LABEL = "webhook-metrics-test";

	private static final String VALIDATE = "webhook=\"/validate--v1-configmap\"";

	private static final String MUTATE = "webhook=\"/mutate--v1-configmap\"";

	ApiClient client;

	TestNamespace namespace;

	private ConfigurableApplicationContext context;

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void theScrapeCountsEachCallOfTheApiServerByWebhookAndCodeWithLatencyAndInFlight() throws ApiException {
		new DynamicKubernetesApi("", "v1", "namespaces", this.client)
			.patch(this.namespace.name(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"metadata\":{\"labels\":{\"" + LABEL + "\":\"" + this.namespace.name() + "\"}}}"))
			.throwsApiException();
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=webhook-metrics-test", "kube-reconciler.webhooks.port=0",
					"kube-reconciler.webhooks.register=true",
					"kube-reconciler.webhooks.namespace-selector." + LABEL + "=" + this.namespace.name())
			.run();
		PrometheusMeterRegistry registry = this.context.getBean(PrometheusMeterRegistry.class);
		CoreV1Api core = new CoreV1Api(this.client);
		for (int i = 0; i < 3; i++) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("counted-" + i)).data(Map.of("mode", "fast")))
				.execute();
		}
		// a denial is an answer too: 200, with allowed false in the review
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(
					() -> core
						.createNamespacedConfigMap(this.namespace.name(),
								new V1ConfigMap().metadata(new V1ObjectMeta().name("denied"))
									.data(Map.of("mode", "slow")))
						.execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
		// the server counts a request once its answer is sent, which the API server may
		// have read already
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(registry.scrape())
				.contains("controller_runtime_webhook_requests_total{code=\"200\"," + VALIDATE + "} 4.0\n")
				.contains("controller_runtime_webhook_requests_total{code=\"200\"," + MUTATE + "} 4.0\n"));
		String scrape = registry.scrape();
		assertThat(scrape)
			.contains("# HELP controller_runtime_webhook_requests_total "
					+ "Total number of admission requests by HTTP status code.\n")
			.contains("# TYPE controller_runtime_webhook_requests_total counter\n")
			.contains("controller_runtime_webhook_requests_total{code=\"500\"," + VALIDATE + "} 0.0\n")
			.contains("# TYPE controller_runtime_webhook_latency_seconds histogram\n")
			.contains("controller_runtime_webhook_latency_seconds_bucket{" + VALIDATE + ",le=\"+Inf\"} 4\n")
			.contains("controller_runtime_webhook_latency_seconds_count{" + VALIDATE + "} 4\n")
			.contains("controller_runtime_webhook_latency_seconds_count{" + MUTATE + "} 4\n")
			.contains("# TYPE controller_runtime_webhook_requests_in_flight gauge\n")
			.contains("controller_runtime_webhook_requests_in_flight{" + VALIDATE + "} 0.0\n")
			.contains("controller_runtime_webhook_requests_in_flight{" + MUTATE + "} 0.0\n");
		assertThat(scrape.lines()
			.filter((line) -> line
				.startsWith("controller_runtime_webhook_latency_seconds_bucket{" + VALIDATE + ",le=\"1.0E-8\"")))
			.as("controller-runtime's first bucket, 10 ns")
			.hasSize(1);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerWebhookAutoConfiguration.class, KubeReconcilerMetricsAutoConfiguration.class,
			MetricsAutoConfiguration.class })
	@Import(ConfigMapWebhooksApplication.class)
	static class Application {

		@Bean
		PrometheusMeterRegistry prometheusMeterRegistry() {
			return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		}

	}

}
