package dev.kubereconciler.autoconfigure.actuate;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.actuate.ControllersHealthIndicator;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeReconcilerHealthAutoConfiguration}.
 */
class KubeReconcilerHealthAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerHealthAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void providesTheIndicatorByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ControllersHealthIndicator.class);
			// a manager that was never started is neither up nor down
			assertThat(context.getBean(ControllersHealthIndicator.class).health(true).getStatus())
				.isEqualTo(Status.UNKNOWN);
		});
	}

	@Test
	void canBeDisabled() {
		this.contextRunner.withPropertyValues("management.health.controllers.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ControllersHealthIndicator.class));
	}

	@Test
	void followsTheDefaultOfAllIndicators() {
		this.contextRunner.withPropertyValues("management.health.defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ControllersHealthIndicator.class));
	}

	@Test
	void backsOffWithoutTheHealthModule() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ControllersHealthIndicator.class));
	}

	@Test
	void userIndicatorReplacesOurs() {
		this.contextRunner.withBean("controllersHealthIndicator", HealthIndicator.class, () -> () -> null)
			.run((context) -> assertThat(context).doesNotHaveBean(ControllersHealthIndicator.class));
	}

}
