package dev.kubereconciler.test;

import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
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

	@Test
	void aSecondNameOutsideTheRuleFailsTheClassNamingIt() {
		TestExecutionSummary summary = Scenarios.run(ReadsTwoConfigMapsWithPermissionForOne.class);
		assertThat(summary.getTestsSucceededCount()).isOne();
		assertThat(Scenarios.failures(summary)).singleElement()
			.asString()
			.contains("The derived RBAC rules do not allow a request the application made: get core configmaps "
					+ "in namespace default named other")
			.doesNotContain("named allowed [");
	}

	@Test
	void namesTheRuleAllowsPass() {
		TestExecutionSummary summary = Scenarios.run(ReadsOneConfigMapWithPermissionForIt.class);
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

	@KubernetesTest
	@SpringBootTest(classes = { ConfigMapReader.class, AllowedConfigMapReadPermission.class },
			properties = "reads=allowed,other")
	@EnabledIf(Scenarios.LAUNCHED)
	static class ReadsTwoConfigMapsWithPermissionForOne {

		@Test
		void passes() {
		}

	}

	@KubernetesTest
	@SpringBootTest(classes = { ConfigMapReader.class, AllowedConfigMapReadPermission.class },
			properties = "reads=allowed,allowed")
	@EnabledIf(Scenarios.LAUNCHED)
	static class ReadsOneConfigMapWithPermissionForIt {

		@Test
		void passes() {
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	static class ConfigMapReader {

		// reads config maps by name; they need not exist, as the proof judges the
		// requests, not their answers
		@Bean
		InitializingBean configMapReads(ApiClient apiClient, @Value("${reads}") List<String> names) {
			return () -> {
				CoreV1Api core = new CoreV1Api(apiClient);
				for (String name : names) {
					try {
						core.readNamespacedConfigMap(name, "default").execute();
					}
					catch (ApiException ex) {
						assertThat(ex.getCode()).isEqualTo(404);
					}
				}
			};
		}

		@Bean
		RbacPolicyProvider rbacPolicyProvider(ObjectProvider<PolicyRule> rules) {
			return () -> new RbacPolicy(
					List.of(new Role(RbacPolicy.CONTROLLERS, null, rules.orderedStream().toList())));
		}

	}

	static class AllowedConfigMapReadPermission {

		@Bean
		PolicyRule allowedConfigMapReadRule() {
			return new PolicyRule(List.of(""), List.of("configmaps"), List.of("get"), List.of("allowed"));
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
