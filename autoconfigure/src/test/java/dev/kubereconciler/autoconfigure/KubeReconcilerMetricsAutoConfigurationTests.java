package dev.kubereconciler.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.metrics.ControllerMetrics;
import dev.kubereconciler.metrics.LeaderElectionMetrics;
import dev.kubereconciler.metrics.RestClientMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeReconcilerMetricsAutoConfiguration}.
 */
class KubeReconcilerMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerMetricsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void noMeterRegistryMeansNoMetrics() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(ControllerMetrics.class));
	}

	@Test
	void meterRegistryBeanGivesTheMetrics() {
		this.contextRunner.withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(ControllerMetrics.class));
	}

	@Test
	void metricsCanBeDisabled() {
		this.contextRunner.withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("kube-reconciler.metrics.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ControllerMetrics.class));
	}

	@Test
	void backsOffWithoutMicrometer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ControllerMetrics.class));
	}

	@Test
	void springBootsMetricsBindTheBinderToTheRegistry() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
			.withPropertyValues("kube-reconciler.manager.rate-limiter.qps=5",
					"kube-reconciler.manager.rate-limiter.burst=3")
			.run((context) -> {
				assertThat(context).hasSingleBean(ControllerMetrics.class);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("ratelimiter.tokens").tag("limiter", "manager").gauge().value()).isEqualTo(3.0);
			});
	}

	@Test
	void userMetricsReplaceOurs() {
		ControllerMetrics mine = new ControllerMetrics((name) -> null, () -> null);
		this.contextRunner.withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
			.withBean("myMetrics", ControllerMetrics.class, () -> mine)
			.run((context) -> assertThat(context).getBean(ControllerMetrics.class).isSameAs(mine));
	}

	@Test
	void everyApiClientBeanMeasuresItsRequestsOnce() {
		this.contextRunner.withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context.getBean(ApiClient.class).getHttpClient().interceptors())
				.filteredOn(RestClientMetrics.class::isInstance)
				.hasSize(1));
	}

	@Test
	void leaderElectionGivesTheLeaderGaugeNamedAfterTheLease() {
		this.contextRunner.withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("kube-reconciler.leader-election.enabled=true",
					"kube-reconciler.leader-election.lease-namespace=default", "spring.application.name=mirror")
			.run((context) -> {
				SimpleMeterRegistry registry = new SimpleMeterRegistry();
				context.getBean(LeaderElectionMetrics.class).bindTo(registry);
				assertThat(registry.get("leader.election.master.status").tag("name", "mirror-leader").gauge().value())
					.isZero();
			});
		this.contextRunner.withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).doesNotHaveBean(LeaderElectionMetrics.class));
	}

	@Test
	void theProcessMetricsGoToThePrometheusRegistryUnlessTurnedOff() {
		ApplicationContextRunner prometheus = this.contextRunner.withBean(PrometheusMeterRegistry.class,
				() -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
		prometheus.run((context) -> assertThat(context.getBean(PrometheusMeterRegistry.class).scrape())
			.contains("# TYPE process_open_fds gauge"));
		prometheus.withPropertyValues("kube-reconciler.metrics.process.enabled=false")
			.run((context) -> assertThat(context.getBean(PrometheusMeterRegistry.class).scrape())
				.doesNotContain("process_open_fds"));
	}

	@Test
	void withoutThePrometheusRegistryTheOtherMetricsStay() {
		this.contextRunner.withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
			.withClassLoader(new FilteredClassLoader(PrometheusMeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(ControllerMetrics.class));
	}

}
