package dev.kubereconciler.autoconfigure.actuate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.actuate.ControllersEndpoint;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerMetricsAutoConfiguration;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestConfiguration;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application whose Secret dependent the real API server refuses to write: the
 * {@code controllers} endpoint (its limiter decisions and retrying items included), the
 * Prometheus scrape and the logs show none of the Secret's values, plain or base64.
 */
@KubernetesTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecretValuesEndpointIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String TOKEN = "hunter2-token-77b0e4";

	private static final String KEY = "hunter2-key-c51a92";

	ApiClient client;

	TestNamespace namespace;

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private Level level;

	private ConfigurableApplicationContext context;

	@BeforeAll
	void start() throws ApiException {
		String ns = this.namespace.name();
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=secret-values-test",
					"management.endpoints.web.exposure.include=controllers",
					"management.endpoint.controllers.show-items=always",
					"kube-reconciler.controllers.vaults.namespaces=" + ns, "kube-reconciler.shutdown-timeout=5s")
			.run();
		// after the start, which configures logging afresh; the first reconcile waits for
		// a primary object, which the test creates
		Logger logger = (Logger) LoggerFactory.getLogger(WorkQueueController.class);
		this.level = logger.getLevel();
		logger.setLevel(Level.DEBUG);
		this.logs.start();
		((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(this.logs);
	}

	@AfterAll
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
		((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(this.logs);
		((Logger) LoggerFactory.getLogger(WorkQueueController.class)).setLevel(this.level);
	}

	@Test
	void theEndpointMetricsAndLogsShowNoneOfARefusedSecretsValues() throws ApiException {
		String ns = this.namespace.name();
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("app")))
			.execute();
		ControllersEndpoint endpoint = this.context.getBean(ControllersEndpoint.class);
		String failure = "apply of Secret " + ns + "/vault (dependent 'vault') failed: 422 Invalid: ";
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(logLines().stream().filter((line) -> line.contains(failure)).count() >= 3
					&& !endpoint.controller("vaults").events().isEmpty()
					&& !endpoint.controller("vaults").items().isEmpty())
				.as("logs %s, endpoint %s", logLines(), endpoint.controller("vaults"))
				.isTrue());
		List<String> shown = new ArrayList<>(logLines());
		shown.add(endpoint.controllers().toString());
		shown.add(endpoint.controller("vaults").toString());
		String scrape = this.context.getBean(PrometheusMeterRegistry.class).scrape();
		shown.add(scrape);
		// what is looked at does tell of the failure
		assertThat(endpoint.controller("vaults").items())
			.anySatisfy((item) -> assertThat(item.key()).isEqualTo(ns + "/app"));
		assertThat(scrape).contains("controller_runtime_reconcile_errors_total{controller=\"vaults\"}");
		for (String value : List.of(TOKEN, KEY)) {
			String base64 = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
			assertThat(shown).noneSatisfy((text) -> assertThat(text).contains(value))
				.noneSatisfy((text) -> assertThat(text).contains(base64));
		}
	}

	private List<String> logLines() {
		return List.copyOf(this.logs.list)
			.stream()
			.map((event) -> event.getFormattedMessage() + ((event.getThrowableProxy() != null)
					? "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy()) : ""))
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ MetricsAutoConfiguration.class, KubeReconcilerAutoConfiguration.class,
			KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerRbacAutoConfiguration.class,
			KubeReconcilerMetricsAutoConfiguration.class, KubeReconcilerEndpointAutoConfiguration.class })
	@Import(KubernetesTestConfiguration.class)
	static class Application {

		@Bean
		PrometheusMeterRegistry prometheusMeterRegistry() {
			return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		}

		@Bean
		ControllerDefinition vaults() {
			return ControllerDefinition.builder(V1ConfigMap.class)
				.named("vaults")
				.dependent("vault", V1Secret.class,
						(V1ConfigMap configMap, ReconcileContext<V1ConfigMap> context) -> new V1Secret()
							// a label value that the API server refuses, sent
							// with the values
							.metadata(new V1ObjectMeta().name("vault").putLabelsItem("tier", "not a label value"))
							.stringData(Map.of("token", TOKEN))
							.putDataItem("key", KEY.getBytes(StandardCharsets.UTF_8)))
				.reconcile((configMap, context) -> Result.done());
		}

	}

}
