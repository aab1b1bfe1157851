package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestConfiguration;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that an operator's test run logs no "Gauge has been already registered": two
 * applications live at once, as two cached test contexts do, each with the
 * {@link SimpleMeterRegistry} Spring Boot gives a test, whose histograms are gauges.
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class MeterRegistrationIntegrationTests {

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	TestNamespace namespace;

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void twoApplicationsWithAStartedControllerRegisterEachGaugeOnce(CapturedOutput output) {
		for (int i = 0; i < 2; i++) {
			ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
				.web(WebApplicationType.NONE)
				.properties("kube-reconciler.controllers.counted.namespaces=" + this.namespace.name(),
						// Micrometer warns once, then logs every later case at debug
						// level
						"logging.level.io.micrometer.core.instrument.MeterRegistry=debug")
				.run();
			this.contexts.add(context);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry).isInstanceOf(SimpleMeterRegistry.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> registry.find("workqueue.queue.duration.histogram").tag("controller", "counted").gauge(),
						(gauge) -> gauge != null);
		}
		assertThat(output.getAll()).doesNotContain("already registered");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
			SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class })
	@Import(KubernetesTestConfiguration.class)
	static class Application {

		@Bean
		Counted counted() {
			return new Counted();
		}

	}

	static class Counted {

		@Reconciler(name = "counted", watches = V1ConfigMap.class)
		void reconcile(Request request) {
		}

	}

}
