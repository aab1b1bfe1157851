package dev.kubereconciler.test.rbac;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.rbac.RbacManifests;
import dev.kubereconciler.rbac.RbacPolicy;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the RBAC proof and the API server, enforcing RBAC, agree: the policy is
 * deployed as {@code target/kubernetes} deploys it, bound to a ServiceAccount, and an
 * application with that identity is refused exactly the requests the proof refuses.
 */
@KubernetesTest
class RbacProofServerAgreementTests {

	private static final String APPLICATION = "rbac-proof";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private ApiClient client;

	private TestNamespace namespace;

	private KubernetesTestServer server;

	private RbacPolicy policy;

	@Test
	void aSecondNameOutsideTheRuleIsRefusedByBoth() throws ApiException {
		deployThePolicyAndTwoConfigMaps();
		ApiRequestRecorder.Recorded application = ApiRequestRecorder.record(this.server
			.apiClient("system:serviceaccount:" + this.namespace.name() + ":" + APPLICATION, "system:serviceaccounts"));
		CoreV1Api core = new CoreV1Api(application.client());
		// the server's RBAC reads the bindings from its cache, which may lag the create
		await().atMost(TIMEOUT).until(() -> status(core, "allowed") == 200);
		int before = application.recorder().allRequests().size();
		Map<String, Integer> answers = new LinkedHashMap<>();
		for (String name : List.of("allowed", "other", "allowed")) {
			answers.put(name, status(core, name));
		}
		List<ApiRequest> sent = application.recorder().allRequests();
		List<ApiRequest> judged = sent.subList(before, sent.size());
		assertThat(answers).containsExactly(Map.entry("allowed", 200), Map.entry("other", 403));
		List<Boolean> serverVerdicts = new ArrayList<>();
		List<Boolean> proofVerdicts = new ArrayList<>();
		for (ApiRequest request : judged) {
			serverVerdicts.add(answers.get(request.name()) != 403);
			proofVerdicts.add(RbacAuthorizer.allows(this.policy, request));
		}
		assertThat(proofVerdicts).containsExactly(true, false, true).isEqualTo(serverVerdicts);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> RbacAuthorizer.assertAllowed(this.policy, application.recorder().requests()))
			.withMessageContaining("get core configmaps in namespace " + this.namespace.name() + " named other");
	}

	private void deployThePolicyAndTwoConfigMaps() throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		for (String name : List.of("allowed", "other")) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("name", name)))
				.execute();
		}
		this.policy = new RbacPolicy(List.of(new RbacPolicy.Role(RbacPolicy.CONTROLLERS, this.namespace.name(),
				List.of(new PolicyRule(List.of(""), List.of("configmaps"), List.of("get"), List.of("allowed"))))));
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.client);
		for (KubernetesObject object : RbacManifests.objects(this.policy, APPLICATION, this.namespace.name())) {
			if (object instanceof V1Role role) {
				rbac.createNamespacedRole(this.namespace.name(), role).execute();
			}
			else {
				rbac.createNamespacedRoleBinding(this.namespace.name(), (V1RoleBinding) object).execute();
			}
		}
	}

	private int status(CoreV1Api core, String name) {
		try {
			core.readNamespacedConfigMap(name, this.namespace.name()).execute();
			return 200;
		}
		catch (ApiException ex) {
			return ex.getCode();
		}
	}

}
