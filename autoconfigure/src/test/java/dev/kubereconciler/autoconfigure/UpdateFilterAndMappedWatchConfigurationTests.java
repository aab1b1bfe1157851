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

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.UpdateFilter;
import dev.kubereconciler.reconcile.UpdatePredicate;
import dev.kubereconciler.reconcile.Watch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for event filters and mapped watches declared on {@code @Reconciler}, on a
 * {@link ControllerDefinition} bean and in
 * {@code kube-reconciler.controllers.<name>.event-filters}.
 */
class UpdateFilterAndMappedWatchConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void annotationDeclaresBuiltInFiltersFilterBeansAndMappedWatches() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class).run((context) -> {
			ControllerDefinition definition = definition(context, "annotated");
			assertThat(definition.updateFilters()).containsOnlyKeys("generation-changed", "onlyBlue");
			assertThat(definition.updateFilters().get("generation-changed")).isSameAs(UpdateFilter.GENERATION_CHANGED);
			assertThat(definition.updateFilters().get("onlyBlue")).isSameAs(context.getBean("onlyBlue"));
			assertThat(definition.mappedTypes()).containsExactly(V1Secret.class);
			assertThat(definition.mappedWatches().get(0).mapper()).isSameAs(context.getBean("secretToConfigMaps"));
		});
	}

	@Test
	void propertyReplacesTheAnnotationsFiltersInOrder() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class)
			.withPropertyValues(
					"kube-reconciler.controllers.annotated.event-filters=onlyBlue, labels-changed,resource-version-changed")
			.run((context) -> assertThat(definition(context, "annotated").updateFilters().keySet())
				.containsExactly("onlyBlue", "labels-changed", "resource-version-changed"));
	}

	@Test
	void anEmptyPropertyTurnsFilteringOff() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.event-filters=")
			.run((context) -> assertThat(definition(context, "annotated").updateFilters()).isEmpty());
	}

	@Test
	void propertyOverridesTheFiltersOfADefinitionBeanAndKeepsItsMappedWatches() {
		this.contextRunner.withUserConfiguration(DefinitionBean.class)
			.withPropertyValues("kube-reconciler.controllers.coded.event-filters=annotations-changed")
			.run((context) -> {
				ControllerDefinition definition = definition(context, "coded");
				assertThat(definition.updateFilters()).containsOnlyKeys("annotations-changed");
				assertThat(definition.mappedTypes()).containsExactly(V1Secret.class);
			});
	}

	@Test
	void anUnknownFilterNameFailsNamingThePropertyAndTheChoices() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.event-filters=generation-change")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOfSatisfying(InvalidPropertyException.class, (ex) -> {
					assertThat(ex.getProperty()).isEqualTo("kube-reconciler.controllers.annotated.event-filters");
					assertThat(ex.getAction()).contains(
							"generation-changed, labels-changed, " + "annotations-changed, resource-version-changed");
				});
			});
	}

	@Test
	void aMapperNameThatIsNoRequestMapperFails() {
		this.contextRunner.withUserConfiguration(BadMapperReconciler.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(InvalidPropertyException.class)
				.hasMessageContaining("no RequestMapper bean is named 'missing'");
		});
	}

	private static ControllerDefinition definition(AssertableApplicationContext context, String name) {
		assertThat(context).hasNotFailed();
		return context.getBean(ManagedControllers.class).getManager().controller(name).definition();
	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedReconciler {

		@Bean
		UpdatePredicate onlyBlue() {
			return (oldObject, newObject) -> true;
		}

		@Bean
		RequestMapper<V1Secret> secretToConfigMaps() {
			return (secret) -> List.of(new Request(secret.getMetadata().getNamespace(), "uses-secret"));
		}

		@Reconciler(name = "annotated", watches = V1ConfigMap.class, updateFilters = UpdateFilter.GENERATION_CHANGED,
				updateFilterBeans = "onlyBlue", maps = @Watch(type = V1Secret.class, mapper = "secretToConfigMaps"))
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadMapperReconciler {

		@Reconciler(name = "bad", watches = V1ConfigMap.class, maps = @Watch(type = V1Secret.class, mapper = "missing"))
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DefinitionBean {

		@Bean
		ControllerDefinition coded() {
			return ControllerDefinition.builder(V1ConfigMap.class)
				.named("coded")
				.updateFilters(UpdateFilter.GENERATION_CHANGED)
				.maps(V1Secret.class, (secret) -> List.of())
				.reconcile((request) -> Result.done());
		}

	}

}
