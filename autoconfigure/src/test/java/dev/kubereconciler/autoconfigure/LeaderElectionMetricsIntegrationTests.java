package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
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
 * client-go's {@code leader_election_master_status} in the scrapes of two replicas on one
 * Lease of the real API server: 1 on the leader, 0 on the other, and the reverse once the
 * leader stopped and the other took the Lease over.
 */
@KubernetesTest
class LeaderElectionMetricsIntegrationTests {

	private static final String LEASE = "metrics-leader";

	TestNamespace namespace;

	private ConfigurableApplicationContext first;

	private ConfigurableApplicationContext second;

	@AfterEach
	void stop() {
		if (this.second != null) {
			this.second.close();
		}
		if (this.first != null) {
			this.first.close();
		}
	}

	private ConfigurableApplicationContext start() {
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=leader-metrics-test",
					"kube-reconciler.controllers.elected.namespaces=" + this.namespace.name(),
					"kube-reconciler.leader-election.enabled=true",
					"kube-reconciler.leader-election.lease-name=" + LEASE,
					"kube-reconciler.leader-election.lease-namespace=" + this.namespace.name(),
					"kube-reconciler.leader-election.lease-duration=4s",
					"kube-reconciler.leader-election.renew-deadline=3s",
					"kube-reconciler.leader-election.retry-period=500ms", "kube-reconciler.shutdown-timeout=2s")
			.run();
	}

	@Test
	void theLeaderReportsOneAndTheOtherZeroUntilTheLeaseIsHandedOver() {
		this.first = start();
		PrometheusMeterRegistry first = this.first.getBean(PrometheusMeterRegistry.class);
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(status(first)).isEqualTo("1.0"));
		this.second = start();
		PrometheusMeterRegistry second = this.second.getBean(PrometheusMeterRegistry.class);
		// the second replica is a candidate for several retry periods
		await().during(Duration.ofSeconds(2))
			.atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(status(second)).isEqualTo("0.0"));
		assertThat(status(first)).isEqualTo("1.0");
		this.first.close();
		assertThat(status(first)).isEqualTo("0.0");
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status(second)).isEqualTo("1.0"));
	}

	private static String status(PrometheusMeterRegistry registry) {
		String prefix = "leader_election_master_status{name=\"" + LEASE + "\"} ";
		return registry.scrape()
			.lines()
			.filter((line) -> line.startsWith(prefix))
			.map((line) -> line.substring(prefix.length()))
			.findFirst()
			.orElse("absent");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
			PrometheusMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class })
	static class Application {

		@Bean
		ApiClient apiClient() {
			return KubernetesTestServer.shared().apiClient();
		}

		@Bean
		Elected elected() {
			return new Elected();
		}

	}

	static final class Elected {

		@Reconciler(name = "elected", watches = V1ConfigMap.class)
		void reconcile(Request request) {
		}

	}

}
