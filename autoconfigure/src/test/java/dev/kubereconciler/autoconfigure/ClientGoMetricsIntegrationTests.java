package dev.kubereconciler.autoconfigure;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.system.SystemMetricsAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * client-go's REST client metrics and Prometheus' standard process metrics in the scrape
 * of an application that brings its own {@link ApiClient} bean, with an interceptor of
 * its own that counts what the client sent, against the real API server; Spring Boot's
 * Micrometer process binders are on, as they are by default.
 */
@KubernetesTest
class ClientGoMetricsIntegrationTests {

	private static final Pattern REQUESTS = Pattern
		.compile("rest_client_requests_total\\{code=\"([^\"]+)\",host=\"([^\"]+)\",method=\"([A-Z]+)\"} ([0-9.]+)");

	ApiClient client;

	TestNamespace namespace;

	private ConfigurableApplicationContext context;

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
	}

	private PrometheusMeterRegistry start() {
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=client-go-metrics-test",
					"kube-reconciler.controllers.labeller.namespaces=" + this.namespace.name())
			.run();
		return this.context.getBean(PrometheusMeterRegistry.class);
	}

	@Test
	void everyRequestOfTheApplicationsOwnClientIsCountedByCodeMethodAndHost() throws ApiException {
		PrometheusMeterRegistry registry = start();
		CoreV1Api core = new CoreV1Api(this.client);
		for (int i = 0; i < 3; i++) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("counted-" + i)))
				.execute();
		}
		SentRequests sent = this.context.getBean(SentRequests.class);
		String host = this.context.getBean(ApiClient.class).getBasePath().replaceFirst("^https?://", "");
		// the reconciles of the three ConfigMaps each read a missing Secret and patch
		// their ConfigMap
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			assertThat(sent.counts()).containsKeys("404 GET", "200 PATCH", "200 GET");
			assertThat(sent.counts().get("200 PATCH")).isGreaterThanOrEqualTo(3);
			assertThat(counted(registry.scrape(), host)).isEqualTo(sent.counts());
		});
		assertThat(registry.scrape()).contains("# TYPE rest_client_request_duration_seconds histogram\n")
			.contains("rest_client_request_duration_seconds_bucket{host=\"" + host + "\",verb=\"PATCH\",le=\"60.0\"}")
			.contains("rest_client_response_size_bytes_count{host=\"" + host + "\",verb=\"PATCH\"}");
	}

	private static Map<String, Integer> counted(String scrape, String host) {
		Map<String, Integer> counted = new TreeMap<>();
		scrape.lines().map(REQUESTS::matcher).filter(Matcher::matches).forEach((line) -> {
			assertThat(line.group(2)).isEqualTo(host);
			counted.put(line.group(1) + " " + line.group(3), (int) Double.parseDouble(line.group(4)));
		});
		return counted;
	}

	@Test
	void theScrapeHasPrometheusStandardProcessMetricsBesideMicrometersOwn() {
		String scrape = start().scrape();
		assertThat(scrape).contains("# TYPE process_cpu_seconds_total counter\n")
			.contains("# TYPE process_resident_memory_bytes gauge\n")
			.contains("# TYPE process_virtual_memory_bytes gauge\n")
			.contains("# TYPE process_open_fds gauge\n")
			.contains("# TYPE process_max_fds gauge\n")
			.contains("# TYPE process_start_time_seconds gauge\n")
			// Micrometer's process binders, under their own names
			.contains("# TYPE process_cpu_usage gauge\n")
			.contains("# TYPE process_files_open_files gauge\n");
		assertThat(value(scrape, "process_cpu_seconds_total")).isPositive();
		double resident = value(scrape, "process_resident_memory_bytes");
		assertThat(resident).isGreaterThan(1 << 20);
		assertThat(value(scrape, "process_virtual_memory_bytes")).isGreaterThan(resident);
		double open = value(scrape, "process_open_fds");
		assertThat(open).isPositive();
		assertThat(value(scrape, "process_max_fds")).isGreaterThanOrEqualTo(open);
		// this JVM's start, once: Micrometer's UptimeMetrics publishes the name already
		assertThat(value(scrape, "process_start_time_seconds"))
			.isCloseTo(ManagementFactory.getRuntimeMXBean().getStartTime() / 1000.0, Offset.offset(1.0))
			.isLessThanOrEqualTo(System.currentTimeMillis() / 1000.0);
		assertThat(scrape.lines().filter((line) -> line.startsWith("process_start_time_seconds "))).hasSize(1);
	}

	private static double value(String scrape, String name) {
		return scrape.lines()
			.filter((line) -> line.startsWith(name + " "))
			.map((line) -> Double.parseDouble(line.substring(name.length() + 1)))
			.findFirst()
			.orElseThrow(() -> new AssertionError(name + " is not in the scrape"));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
			PrometheusMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
			SystemMetricsAutoConfiguration.class })
	static class Application {

		// the application's own client
		@Bean
		ApiClient apiClient() {
			return KubernetesTestServer.shared().apiClient();
		}

		@Bean
		SentRequests sentRequests() {
			return new SentRequests();
		}

		// as an application adds an interceptor of its own to its client
		@Bean
		static BeanPostProcessor sentRequestsInterceptor(ObjectProvider<SentRequests> sent) {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (bean instanceof ApiClient client) {
						client.setHttpClient(
								client.getHttpClient().newBuilder().addInterceptor(sent.getObject()).build());
					}
					return bean;
				}

			};
		}

		@Bean
		Labeller labeller(ApiClient apiClient) {
			return new Labeller(apiClient);
		}

	}

	/**
	 * Counts what the client sent, by code and method.
	 */
	static final class SentRequests implements Interceptor {

		private final Map<String, Integer> counts = new TreeMap<>();

		@Override
		public Response intercept(Chain chain) throws IOException {
			String method = chain.request().method();
			try {
				Response response = chain.proceed(chain.request());
				count(response.code() + " " + method);
				return response;
			}
			catch (IOException | RuntimeException ex) {
				count("<error> " + method);
				throw ex;
			}
		}

		private synchronized void count(String key) {
			this.counts.merge(key, 1, Integer::sum);
		}

		synchronized Map<String, Integer> counts() {
			return new TreeMap<>(this.counts);
		}

	}

	static final class Labeller {

		private final CoreV1Api core;

		private final DynamicKubernetesApi configMaps;

		Labeller(ApiClient client) {
			this.core = new CoreV1Api(client);
			this.configMaps = new DynamicKubernetesApi("", "v1", "configmaps", client);
		}

		@Reconciler(name = "labeller", watches = V1ConfigMap.class)
		void reconcile(Request request) throws ApiException {
			try {
				this.core.readNamespacedSecret("missing", request.namespace()).execute();
			}
			catch (ApiException ex) {
				if (ex.getCode() != 404) {
					throw ex;
				}
			}
			this.configMaps
				.patch(request.namespace(), request.name(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
						new V1Patch("{\"metadata\":{\"labels\":{\"labelled\":\"true\"}}}"))
				.throwsApiException();
		}

	}

}
