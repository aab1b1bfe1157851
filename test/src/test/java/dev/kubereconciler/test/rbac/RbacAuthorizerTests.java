package dev.kubereconciler.test.rbac;

import java.util.List;

import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.rbac.RbacPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RbacAuthorizer} and {@link ApiRequest}: Kubernetes' matching rules,
 * one by one.
 */
class RbacAuthorizerTests {

	@Test
	void requestsAreParsedAsTheApiServerDoes() {
		assertThat(request("GET", "/api/v1/namespaces/red/configmaps?watch=true&resourceVersion=1")).isEqualTo(
				new ApiRequest("watch", "", "configmaps", "", "red", "", "/api/v1/namespaces/red/configmaps", "t"));
		assertThat(request("GET", "/apis/apps/v1/deployments"))
			.extracting(ApiRequest::verb, ApiRequest::group, ApiRequest::namespace)
			.containsExactly("list", "apps", "");
		assertThat(request("PUT", "/apis/example.dev/v1/namespaces/red/widgets/w1/status"))
			.extracting(ApiRequest::verb, ApiRequest::resource, ApiRequest::subresource, ApiRequest::name)
			.containsExactly("update", "widgets", "status", "w1");
		assertThat(request("GET", "/api/v1/namespaces/red"))
			.extracting(ApiRequest::verb, ApiRequest::resource, ApiRequest::name)
			.containsExactly("get", "namespaces", "red");
		assertThat(request("DELETE", "/api/v1/namespaces/red/pods")).extracting(ApiRequest::verb)
			.isEqualTo("deletecollection");
		assertThat(request("GET", "/apis/apps/v1").isResourceRequest()).isFalse();
	}

	@Test
	void statusAndFinalizeOfANamespaceAreSubresourcesOfNamespaces() {
		assertThat(request("PUT", "/api/v1/namespaces/red/status")).isEqualTo(new ApiRequest("update", "", "namespaces",
				"status", "red", "red", "/api/v1/namespaces/red/status", "t"));
		assertThat(request("PUT", "/api/v1/namespaces/red/finalize"))
			.extracting(ApiRequest::verb, ApiRequest::resource, ApiRequest::subresource, ApiRequest::name)
			.containsExactly("update", "namespaces", "finalize", "red");
		assertThat(allows(cluster(PolicyRule.of("", "namespaces", "update")), "PUT", "/api/v1/namespaces/red/finalize"))
			.isFalse();
		assertThat(allows(cluster(PolicyRule.of("", "namespaces/finalize", "update")), "PUT",
				"/api/v1/namespaces/red/finalize"))
			.isTrue();
		// any other word after a namespace's name is a resource in that namespace
		assertThat(request("GET", "/api/v1/namespaces/red/statuses"))
			.extracting(ApiRequest::verb, ApiRequest::resource, ApiRequest::namespace)
			.containsExactly("list", "statuses", "red");
	}

	@Test
	void aNamespaceIsItsOwnNamespaceAsTheApiServerSays() {
		// RequestInfoFactory sets the namespace of a request for a namespace object to
		// its name, so a Role in that namespace can grant reading it
		RbacPolicy policy = new RbacPolicy(
				List.of(new RbacPolicy.Role("controllers", "red", List.of(PolicyRule.of("", "namespaces", "get")))));
		assertThat(request("GET", "/api/v1/namespaces/red"))
			.extracting(ApiRequest::verb, ApiRequest::resource, ApiRequest::namespace, ApiRequest::name)
			.containsExactly("get", "namespaces", "red", "red");
		assertThat(allows(policy, "GET", "/api/v1/namespaces/red")).isTrue();
		assertThat(allows(policy, "GET", "/api/v1/namespaces/blue")).isFalse();
	}

	@Test
	void verbGroupAndResourceMustAllMatch() {
		RbacPolicy policy = cluster(PolicyRule.of("apps", "deployments", "get", "list"));
		assertThat(allows(policy, "GET", "/apis/apps/v1/namespaces/red/deployments")).isTrue();
		assertThat(allows(policy, "GET", "/apis/apps/v1/namespaces/red/deployments?watch=1")).isFalse();
		assertThat(allows(policy, "GET", "/apis/extensions/v1/namespaces/red/deployments")).isFalse();
		assertThat(allows(policy, "GET", "/apis/apps/v1/namespaces/red/statefulsets")).isFalse();
	}

	@Test
	void aSubresourceNeedsItsOwnRuleOrAStarSlashRule() {
		assertThat(allows(cluster(PolicyRule.of("", "pods", "*")), "PUT", "/api/v1/namespaces/a/pods/p/status"))
			.isFalse();
		assertThat(allows(cluster(PolicyRule.of("", "pods/status", "update")), "PUT",
				"/api/v1/namespaces/a/pods/p/status"))
			.isTrue();
		assertThat(
				allows(cluster(PolicyRule.of("", "*/status", "update")), "PUT", "/api/v1/namespaces/a/pods/p/status"))
			.isTrue();
		assertThat(allows(cluster(PolicyRule.of("*", "*", "*")), "PUT", "/api/v1/namespaces/a/pods/p/status")).isTrue();
	}

	@Test
	void resourceNamesLimitToNamedObjectsAndNeverAllowACollection() {
		RbacPolicy policy = cluster(
				new PolicyRule(List.of(""), List.of("configmaps"), List.of("get", "list"), List.of("settings")));
		assertThat(allows(policy, "GET", "/api/v1/namespaces/a/configmaps/settings")).isTrue();
		assertThat(allows(policy, "GET", "/api/v1/namespaces/a/configmaps/other")).isFalse();
		assertThat(allows(policy, "GET", "/api/v1/namespaces/a/configmaps")).isFalse();
	}

	@Test
	void aRoleAppliesOnlyInItsNamespace() {
		RbacPolicy policy = new RbacPolicy(
				List.of(new RbacPolicy.Role("controllers", "red", List.of(PolicyRule.of("", "configmaps", "list")))));
		assertThat(allows(policy, "GET", "/api/v1/namespaces/red/configmaps")).isTrue();
		assertThat(allows(policy, "GET", "/api/v1/namespaces/blue/configmaps")).isFalse();
		assertThat(allows(policy, "GET", "/api/v1/configmaps")).isFalse();
	}

	@Test
	void everyNameIsJudgedAgainstARuleLimitedByResourceNames() {
		RbacPolicy policy = cluster(
				new PolicyRule(List.of(""), List.of("configmaps"), List.of("get"), List.of("allowed")));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> RbacAuthorizer.assertAllowed(policy,
					List.of(request("GET", "/api/v1/namespaces/red/configmaps/allowed"),
							request("GET", "/api/v1/namespaces/red/configmaps/other"))))
			.withMessageContaining("get core configmaps in namespace red named other")
			.withMessageNotContaining("named allowed [");
	}

	@Test
	void aMissingRuleFailsWithTheRequestThatNeededIt() {
		RbacPolicy policy = cluster(PolicyRule.of("", "configmaps", "list"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> RbacAuthorizer.assertAllowed(policy,
					List.of(request("GET", "/api/v1/namespaces/red/configmaps"),
							request("POST", "/apis/events.k8s.io/v1/namespaces/red/events"))))
			.withMessageContaining("create events.k8s.io events in namespace red");
	}

	private static RbacPolicy cluster(PolicyRule rule) {
		return new RbacPolicy(List.of(new RbacPolicy.Role("controllers", null, List.of(rule))));
	}

	private static boolean allows(RbacPolicy policy, String method, String path) {
		return RbacAuthorizer.allows(policy, request(method, path));
	}

	private static ApiRequest request(String method, String path) {
		return ApiRequest.of(method, HttpUrl.get("https://127.0.0.1:6443" + path), "t");
	}

}
