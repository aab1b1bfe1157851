package dev.kubereconciler.rbac;

import java.util.List;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerDefinitionBuilder;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RbacRules} and {@link ControllerRbac}.
 */
class RbacRulesTests {

	private static final ResourceType CONFIG_MAPS = ResourceType.of(V1ConfigMap.class);

	private static final ResourceType DEPLOYMENTS = ResourceType.of(V1Deployment.class);

	@Test
	void watchedAndOwnedTypesGetReadVerbsInTheirGroups() {
		RbacPolicy policy = ControllerRbac
			.derive(List.of(definition("apps", V1Deployment.class, Set.of()).owns(V1ConfigMap.class)
				.reconcile((request) -> Result.done())))
			.build();
		assertThat(policy.roles()).singleElement().satisfies((role) -> {
			assertThat(role.clusterWide()).isTrue();
			assertThat(role.rules()).containsExactly(PolicyRule.of("", "configmaps", "get", "list", "watch"),
					PolicyRule.of("apps", "deployments", "get", "list", "watch"));
		});
	}

	@Test
	void everyControllerInNamespacesGivesOneRolePerNamespace() {
		RbacPolicy policy = ControllerRbac.derive(
				List.of(definition("a", V1ConfigMap.class, Set.of("blue", "red")).reconcile((request) -> Result.done()),
						definition("b", V1Secret.class, Set.of("red")).reconcile((request) -> Result.done())))
			.build();
		// one informer per namespace reads each, as controller-runtime's multi-namespace
		// cache: the Roles of the namespaces grant its reads, and no ClusterRole is made
		assertThat(policy.roles()).extracting(RbacPolicy.Role::namespace).containsExactly("blue", "red");
		assertThat(policy.roles().get(0).rules())
			.containsExactly(PolicyRule.of("", "configmaps", "get", "list", "watch"));
		assertThat(policy.roles().get(1).rules())
			.containsExactly(new PolicyRule(List.of(""), List.of("configmaps", "secrets"), RbacRules.READ, List.of()));
	}

	@Test
	void controllersOfOneNamespaceEachThatShareATypeReadItWithTheirRolesAlone() {
		RbacPolicy policy = ControllerRbac
			.derive(List.of(definition("a", V1ConfigMap.class, Set.of("blue")).reconcile((request) -> Result.done()),
					definition("b", V1ConfigMap.class, Set.of("red")).reconcile((request) -> Result.done()),
					definition("c", V1Secret.class, Set.of("red")).reconcile((request) -> Result.done())))
			.build();
		assertThat(policy.roles()).noneMatch(RbacPolicy.Role::clusterWide);
		assertThat(policy.roles()).extracting(RbacPolicy.Role::namespace).containsExactly("blue", "red");
	}

	@Test
	void oneClusterWideControllerMakesAClusterRole() {
		RbacPolicy policy = ControllerRbac
			.derive(List.of(definition("a", V1ConfigMap.class, Set.of("red")).reconcile((request) -> Result.done()),
					definition("b", V1Secret.class, Set.of()).reconcile((request) -> Result.done())))
			.build();
		assertThat(policy.roles()).singleElement().satisfies((role) -> assertThat(role.clusterWide()).isTrue());
	}

	@Test
	void featuresAddTheirWrites() {
		RbacPolicy policy = new RbacRules().watches(CONFIG_MAPS, Set.of())
			.finalizers(CONFIG_MAPS, Set.of())
			.status(DEPLOYMENTS, Set.of())
			.applies(DEPLOYMENTS, Set.of())
			.events()
			.build();
		assertThat(policy.roles().get(0).rules()).containsExactly(
				PolicyRule.of("", "configmaps", "get", "list", "watch", "update", "patch"),
				PolicyRule.of("", "configmaps/finalizers", "update"),
				PolicyRule.of("apps", "deployments", "create", "patch"),
				PolicyRule.of("apps", "deployments/status", "get", "update", "patch"),
				PolicyRule.of("events.k8s.io", "events", "create", "patch"));
	}

	@Test
	void leasesGetARoleOfTheirOwnInTheLeaseNamespace() {
		RbacPolicy policy = new RbacRules().watches(CONFIG_MAPS, Set.of()).leases("operators").build();
		assertThat(policy.roles()).hasSize(2);
		assertThat(policy.roles().get(1)).isEqualTo(new RbacPolicy.Role(RbacPolicy.LEADER_ELECTION, "operators",
				List.of(PolicyRule.of("coordination.k8s.io", "leases", "get", "create", "update"))));
	}

	@Test
	void shardLeasesGetARoleOfTheirOwnThatListsAndDeletes() {
		RbacPolicy policy = new RbacRules().watches(CONFIG_MAPS, Set.of()).shardLeases("operators").build();
		assertThat(policy.roles()).hasSize(2);
		assertThat(policy.roles().get(1)).isEqualTo(new RbacPolicy.Role(RbacPolicy.SHARDING, "operators",
				List.of(PolicyRule.of("coordination.k8s.io", "leases", "list", "create", "update", "delete"))));
	}

	@Test
	void userRulesJoinTheControllersScope() {
		PolicyRule custom = PolicyRule.of("", "secrets", "get");
		RbacPolicy policy = new RbacRules().watches(CONFIG_MAPS, Set.of("red")).rule(custom).build();
		assertThat(policy.roles()).singleElement().satisfies((role) -> {
			assertThat(role.namespace()).isEqualTo("red");
			assertThat(role.rules()).contains(custom);
		});
	}

	@Test
	void clusterRulesOfNamespacedControllersGetAClusterRoleOfTheirOwn() {
		PolicyRule webhooks = PolicyRule.of("admissionregistration.k8s.io", "validatingwebhookconfigurations", "create",
				"patch", "delete");
		RbacPolicy policy = new RbacRules().watches(CONFIG_MAPS, Set.of("red")).clusterRule(webhooks).build();
		assertThat(policy.roles()).containsExactly(
				new RbacPolicy.Role(RbacPolicy.CONTROLLERS, "red",
						List.of(PolicyRule.of("", "configmaps", "get", "list", "watch"))),
				new RbacPolicy.Role(RbacPolicy.CLUSTER_RESOURCES, null, List.of(webhooks)));
	}

	@Test
	void clusterRulesOfClusterWideControllersJoinTheirClusterRole() {
		PolicyRule webhooks = PolicyRule.of("admissionregistration.k8s.io", "validatingwebhookconfigurations", "create",
				"patch", "delete");
		RbacPolicy policy = new RbacRules().watches(CONFIG_MAPS, Set.of()).clusterRule(webhooks).build();
		assertThat(policy.roles()).containsExactly(new RbacPolicy.Role(RbacPolicy.CONTROLLERS, null,
				List.of(PolicyRule.of("", "configmaps", "get", "list", "watch"), webhooks)));
	}

	@Test
	void clusterRulesAloneMakeAClusterRole() {
		PolicyRule crds = PolicyRule.of("apiextensions.k8s.io", "customresourcedefinitions", "patch");
		assertThat(new RbacRules().clusterRule(crds).build().roles())
			.containsExactly(new RbacPolicy.Role(RbacPolicy.CONTROLLERS, null, List.of(crds)));
	}

	@Test
	void aRuleWithoutVerbsIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new PolicyRule(List.of(""), List.of("pods"), List.of(), List.of()))
			.withMessageContaining("at least one API group, resource and verb");
	}

	private static ControllerDefinitionBuilder<?> definition(String name, Class<? extends KubernetesObject> type,
			Set<String> namespaces) {
		return ControllerDefinition.builder(type).named(name).namespaces(namespaces);
	}

}
