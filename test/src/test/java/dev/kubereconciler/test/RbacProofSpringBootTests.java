package dev.kubereconciler.test;

import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.rbac.RbacPolicy;
import dev.kubereconciler.rbac.RbacPolicy.Role;
import dev.kubereconciler.rbac.RbacPolicyProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the RBAC proof runs after a {@code @SpringBootTest} of
 * {@link KubernetesTest @KubernetesTest} whose client came from the context customizer,
 * with no configuration imported.
 */
@KubernetesTest
class RbacProofSpringBootTests {

	@Test
	void aRequestTheDerivedRulesLackFailsTheClassNamingIt() {
		TestExecutionSummary summary = Scenarios.run(ListsConfigMapsWithoutPermission.class);
		assertThat(summary.getTestsSucceededCount()).isOne();
		assertThat(Scenarios.failures(summary)).singleElement()
			.asString()
			.contains("The derived RBAC rules do not allow a request the application made")
			.contains("configmaps");
	}

	@Test
	void requestsTheDerivedRulesAllowPass() {
		TestExecutionSummary summary = Scenarios.run(ListsConfigMapsWithPermission.class);
		assertThat(summary.getTestsSucceededCount()).isOne();
		assertThat(Scenarios.failures(summary)).isEmpty();
	}

	@KubernetesTest
	@SpringBootTest(classes = ConfigMapLister.class)
	@EnabledIf(Scenarios.LAUNCHED)
	static class ListsConfigMapsWithoutPermission {

		@Test
		void passes() {
		}

	}

	@KubernetesTest
	@SpringBootTest(classes = { ConfigMapLister.class, ConfigMapListPermission.class })
	@EnabledIf(Scenarios.LAUNCHED)
	static class ListsConfigMapsWithPermission {

		@Test
		void passes() {
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	static class ConfigMapLister {

		@Bean
		InitializingBean configMapList(ApiClient apiClient) {
			return () -> new CoreV1Api(apiClient).listNamespacedConfigMap("default").execute();
		}

		@Bean
		RbacPolicyProvider rbacPolicyProvider(ObjectProvider<PolicyRule> rules) {
			return () -> new RbacPolicy(
					List.of(new Role(RbacPolicy.CONTROLLERS, null, rules.orderedStream().toList())));
		}

	}

	static class ConfigMapListPermission {

		@Bean
		PolicyRule configMapListRule() {
			return PolicyRule.of("", "configmaps", "list");
		}

	}

}
