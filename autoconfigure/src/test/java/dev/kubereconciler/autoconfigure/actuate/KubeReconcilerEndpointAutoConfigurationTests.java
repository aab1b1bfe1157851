package dev.kubereconciler.autoconfigure.actuate;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.actuate.ControllerActivity;
import dev.kubereconciler.actuate.ControllersEndpoint;
import dev.kubereconciler.actuate.ControllersEndpointWebExtension;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeReconcilerEndpointAutoConfiguration}. The manager is built but not
 * started, so no API server is needed.
 */
class KubeReconcilerEndpointAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerEndpointAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0))
		.withBean(ControllerDefinition.class,
				() -> ControllerDefinition.builder(V1ConfigMap.class)
					.named("mirror")
					.reconcile((request) -> Result.done()));

	@Test
	void endpointThatIsNotExposedHasNoBeansAndRecordsNothing() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(ControllersEndpoint.class);
			assertThat(context).doesNotHaveBean(ControllerActivity.class);
			assertThat(context).doesNotHaveBean(ControllersEndpointWebExtension.class);
		});
	}

	@Test
	void endpointExposedOnTheWebHasTheEndpointTheActivityAndTheWebExtension() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=controllers")
			.run((context) -> {
				assertThat(context).hasSingleBean(ControllersEndpoint.class);
				assertThat(context).hasSingleBean(ControllerActivity.class);
				assertThat(context).hasSingleBean(ControllersEndpointWebExtension.class);
				assertThat(context.getBean(ControllersEndpoint.class).controllers().controllers())
					.containsOnlyKeys("mirror");
			});
	}

	@Test
	void endpointExposedOverJmxOnlyHasNoWebExtension() {
		this.contextRunner
			.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=controllers")
			.run((context) -> {
				assertThat(context).hasSingleBean(ControllersEndpoint.class);
				assertThat(context).doesNotHaveBean(ControllersEndpointWebExtension.class);
			});
	}

	@Test
	void endpointWithNoAccessHasNoBeans() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=controllers",
					"management.endpoint.controllers.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(ControllersEndpoint.class)
				.doesNotHaveBean(ControllerActivity.class));
	}

	@Test
	void endpointNeedsTheControllers() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=controllers",
					"kube-reconciler.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ControllersEndpoint.class));
	}

	@Test
	void showItemsIsWhenAuthorizedByDefaultAndBindsLikeEnvShowValues() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=controllers")
			.run((context) -> assertThat(context.getBean(ControllersEndpointProperties.class).getShowItems())
				.isEqualTo(Show.WHEN_AUTHORIZED));
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=controllers",
					"management.endpoint.controllers.show-items=never",
					"management.endpoint.controllers.roles=OPERATOR,ADMIN")
			.run((context) -> {
				ControllersEndpointProperties properties = context.getBean(ControllersEndpointProperties.class);
				assertThat(properties.getShowItems()).isEqualTo(Show.NEVER);
				assertThat(properties.getRoles()).containsExactlyInAnyOrder("OPERATOR", "ADMIN");
			});
	}

	@Test
	void userActivityReplacesOurs() {
		ControllerActivity activity = new ControllerActivity();
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=controllers")
			.withBean("myActivity", ControllerActivity.class, () -> activity)
			.run((context) -> assertThat(context).getBean(ControllerActivity.class).isSameAs(activity));
	}

}
