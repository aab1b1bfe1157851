package dev.kubereconciler.rbac;

import java.util.List;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.cluster.ClusterProfile;
import dev.kubereconciler.cluster.ClusterProfileProvider;
import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.cluster.KubeconfigSecretProvider;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link FleetRbac}: each controller's rules go to the clusters it runs on, and
 * the providers' reads to the local cluster.
 */
class FleetRbacTests {

	private final List<ControllerDefinition> definitions = List.of(
			definition("fleet", V1ConfigMap.class, ClusterScope.FLEET),
			definition("local", V1Service.class, ClusterScope.LOCAL),
			definition("both", V1Secret.class, ClusterScope.BOTH));

	@Test
	void aMemberGetsTheRulesOfTheControllersOnTheFleetOnly() {
		assertThat(FleetRbac.members(this.definitions).build().roles()).singleElement()
			.satisfies((role) -> assertThat(role.rules()).containsExactly(
					new PolicyRule(List.of(""), List.of("configmaps", "secrets"), RbacRules.READ, List.of())));
	}

	@Test
	void theLocalClusterGetsTheRulesOfItsControllersAndTheProvidersReadsInTheirNamespace() {
		ApiClient hub = new ApiClient();
		RbacRules rules = FleetRbac.providers(FleetRbac.local(this.definitions),
				List.of(new KubeconfigSecretProvider(hub, "fleet", "", "kubeconfig"),
						new ClusterProfileProvider(hub, "inventory", "manager")));
		FleetRbac.kubeconfigSecret(rules, "fleet", "east");
		List<RbacPolicy.Role> roles = rules.build().roles();
		assertThat(roles).extracting(RbacPolicy.Role::purpose, RbacPolicy.Role::namespace)
			.containsExactly(tuple(RbacPolicy.CONTROLLERS, null), tuple(RbacPolicy.CLUSTER_PROVIDERS, "fleet"),
					tuple(RbacPolicy.CLUSTER_PROVIDERS, "inventory"));
		assertThat(roles.get(0).rules())
			.containsExactly(new PolicyRule(List.of(""), List.of("secrets", "services"), RbacRules.READ, List.of()));
		// informers only list and watch; a static cluster's Secret is read by name
		assertThat(roles.get(1).rules()).containsExactly(PolicyRule.of("", "secrets", "list", "watch"),
				new PolicyRule(List.of(""), List.of("secrets"), List.of("get"), List.of("east")));
		assertThat(roles.get(2).rules()).containsExactly(
				PolicyRule.of(ClusterProfile.GROUP, "clusterprofiles", "list", "watch"),
				PolicyRule.of("", "secrets", "list", "watch"));
	}

	private static ControllerDefinition definition(String name, Class<? extends KubernetesObject> type,
			ClusterScope scope) {
		return ControllerDefinition.builder(type).named(name).clusters(scope).reconcile((request) -> Result.done());
	}

}
