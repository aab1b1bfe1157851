package dev.kubereconciler.autoconfigure;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.spring.extended.controller.config.KubernetesInformerAutoConfiguration;
import io.kubernetes.client.spring.extended.controller.config.KubernetesReconcilerAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that kube-reconciler coexists with client-java-spring-integration's
 * auto-configuration and reuses its beans.
 */
class SpringIntegrationCoexistenceTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubernetesInformerAutoConfiguration.class,
				KubernetesReconcilerAutoConfiguration.class, KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false");

	@Test
	void reusesTheApiClientAndInformerFactoryOfSpringIntegration() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(ApiClient.class);
			assertThat(context).hasSingleBean(SharedInformerFactory.class);
			assertThat(context.getBeanNamesForType(ApiClient.class)).containsExactly("defaultApiClient");
			ManagedControllers controllers = context.getBean(ManagedControllers.class);
			assertThat(controllers.getManager().controllers()).isEmpty();
		});
	}

}
