package dev.kubereconciler.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbac;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.rbac.RbacPolicy;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * {@code kube-reconciler.crds.apply} against the real API server: the CRDs at the
 * configured locations are applied and served before the controllers start, which without
 * the property refuse to start on a type the server does not serve.
 */
@KubernetesTest
class CrdsApplyIntegrationTests {

	ApiClient client;

	@Test
	void crdsAtTheLocationsAreServedBeforeTheControllersStart() {
		try (ConfigurableApplicationContext context = start(WhatsitApplication.class, "kube-reconciler.crds.apply=true",
				"kube-reconciler.crds.locations=crds-apply/*.yaml")) {
			assertThat(context.getBean(ControllerRegistry.class).controller("whatsit")).isNotNull();
			assertThat(new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", this.client)
				.get("whatsits.apply.test.kubereconciler.dev")
				.isSuccess()).isTrue();
			// applying CRDs takes permissions of its own, which the derived RBAC grants
			assertThat(context.getBean(KubeReconcilerRbac.class).yaml()).contains("customresourcedefinitions");
		}
	}

	@Test
	void theRulesOfApplyingCrdsAreClusterWideWhenTheControllersHaveRoles() {
		try (ConfigurableApplicationContext context = start(WhatsitApplication.class, "kube-reconciler.crds.apply=true",
				"kube-reconciler.crds.locations=crds-apply/*.yaml",
				"kube-reconciler.controllers.whatsit.namespaces=default")) {
			RbacPolicy policy = context.getBean(KubeReconcilerRbac.class).policy();
			assertThat(policy.roles()).filteredOn((role) -> role.purpose().equals(RbacPolicy.CONTROLLERS))
				.singleElement()
				.satisfies((role) -> assertThat(role.namespace()).isEqualTo("default"));
			// a Role cannot grant a cluster-scoped resource
			assertThat(policy.roles()).filteredOn(RbacPolicy.Role::clusterWide)
				.flatExtracting(RbacPolicy.Role::rules)
				.contains(PolicyRule.of("apiextensions.k8s.io", "customresourcedefinitions", "get", "create", "patch"));
		}
	}

	@Test
	void withoutThePropertyNothingIsAppliedAndAnUnservedTypeStopsTheStart() {
		assertThatException()
			.isThrownBy(
					() -> start(ThingummyApplication.class, "kube-reconciler.crds.locations=crds-skip/*.yaml").close())
			.withStackTraceContaining("Controller 'thingummy' watches apply.test.kubereconciler.dev/v1/Thingummy, "
					+ "which the API server does not serve");
		assertThat(new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", this.client)
			.get("thingummies.apply.test.kubereconciler.dev")
			.getHttpStatusCode()).isEqualTo(404);
	}

	private static ConfigurableApplicationContext start(Class<?> application, String... properties) {
		return new SpringApplicationBuilder(application).web(WebApplicationType.NONE).properties(properties).run();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerRbacAutoConfiguration.class })
	@Import(KubernetesTestConfiguration.class)
	static class WhatsitApplication {

		@Bean
		ControllerDefinition whatsit() {
			return ControllerDefinition.builder(Whatsit.class)
				.named("whatsit")
				.reconcile((Request request) -> Result.done());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerRbacAutoConfiguration.class })
	@Import(KubernetesTestConfiguration.class)
	static class ThingummyApplication {

		@Bean
		ControllerDefinition thingummy() {
			return ControllerDefinition.builder(Thingummy.class)
				.named("thingummy")
				.reconcile((Request request) -> Result.done());
		}

	}

	/**
	 * A custom resource whose CRD the first test has applied.
	 */
	@ResourceCoordinates(group = "apply.test.kubereconciler.dev", version = "v1", kind = "Whatsit", plural = "whatsits")
	public static class Whatsit extends CustomResource<Object, Object> {

	}

	/**
	 * A custom resource whose CRD no one applies.
	 */
	@ResourceCoordinates(group = "apply.test.kubereconciler.dev", version = "v1", kind = "Thingummy",
			plural = "thingummies")
	public static class Thingummy extends CustomResource<Object, Object> {

	}

}
