package dev.kubereconciler.autoconfigure;

import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the cache options of the auto-configured manager: the
 * {@code kube-reconciler.cache.resources.*} properties, {@link FieldIndex} beans and the
 * indexes of a {@link ControllerDefinition} bean reach the manager, and an invalid value
 * fails the startup naming its property.
 */
class CacheOptionsConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void propertiesIndexBeansAndTheIndexesOfADefinitionBeanReachTheManager() {
		this.contextRunner.withUserConfiguration(Indexed.class)
			.withPropertyValues("kube-reconciler.cache.resources.secrets.read-through=true")
			.run((context) -> {
				CacheOptions options = manager(context).cacheOptions();
				assertThat(options.isReadThrough(V1Secret.class)).isTrue();
				assertThat(options.indexes(V1ConfigMap.class)).extracting(FieldIndex::name)
					.containsExactlyInAnyOrder("secret", "owner-name");
				assertThat(manager(context).controller("indexed").definition().indexes()).extracting(FieldIndex::name)
					.containsExactly("secret");
			});
	}

	@Test
	void anInvalidSelectorFailsTheStartupNamingItsProperty() {
		this.contextRunner.withUserConfiguration(Indexed.class)
			.withPropertyValues("kube-reconciler.cache.resources.configmaps.field-selector=metadata.name")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.satisfies((failure) -> assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
					.isInstanceOf(InvalidPropertyException.class)
					.hasMessageContaining("kube-reconciler.cache.resources[configmaps].field-selector")));
	}

	private static ControllerManager manager(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(ManagedControllers.class).getManager();
	}

	@Configuration(proxyBeanMethods = false)
	static class Indexed {

		@Bean
		ControllerDefinition indexed() {
			return ControllerDefinition.builder(V1ConfigMap.class)
				.named("indexed")
				.index(V1ConfigMap.class, "secret", (configMap) -> List.of(configMap.getData().get("secret")))
				.mapsByIndex(V1Secret.class, "secret", (secret) -> List.of(secret.getMetadata().getName()))
				.reconcile((request) -> Result.done());
		}

		@Bean
		FieldIndex<V1ConfigMap> ownerName() {
			return FieldIndex.of(V1ConfigMap.class, "owner-name", (configMap) -> configMap.getMetadata().getName());
		}

	}

}
