package dev.kubereconciler.rbac;

import java.util.List;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the RBAC of read-through types ({@link ControllerRbac#readThrough}): get and
 * list where the controllers read, and no watch, since no informer watches them.
 */
class ReadThroughRbacTests {

	@Test
	void readThroughTypeGetsGetAndListInTheControllersNamespacesButNoWatch() {
		List<ControllerDefinition> definitions = List.of(ControllerDefinition.builder(V1ConfigMap.class)
			.named("reader")
			.namespaces("red")
			.reconcile((request) -> Result.done()));
		RbacRules rules = ControllerRbac.derive(definitions);
		ControllerRbac.readThrough(rules, CacheOptions.defaults().readThrough(V1Secret.class), definitions);
		RbacPolicy policy = rules.build();
		assertThat(policy.roles()).singleElement().satisfies((role) -> {
			assertThat(role.namespace()).isEqualTo("red");
			assertThat(role.rules()).containsExactly(PolicyRule.of("", "configmaps", "get", "list", "watch"),
					PolicyRule.of("", "secrets", "get", "list"));
		});
	}

	@Test
	void readThroughTypeOfAClusterWideControllerIsReadEverywhereInItsGroup() {
		List<ControllerDefinition> definitions = List
			.of(ControllerDefinition.builder(V1ConfigMap.class).named("reader").reconcile((request) -> Result.done()));
		RbacRules rules = ControllerRbac.derive(definitions);
		ControllerRbac.readThrough(rules, CacheOptions.defaults().readThrough("backups.example.com"), definitions);
		assertThat(rules.build().roles()).singleElement().satisfies((role) -> {
			assertThat(role.clusterWide()).isTrue();
			assertThat(role.rules()).contains(PolicyRule.of("example.com", "backups", "get", "list"));
		});
	}

}
