package dev.kubereconciler.test.rbac;

import java.util.Collection;
import java.util.List;
import java.util.Set;

import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.rbac.RbacPolicy;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Decides whether an {@link RbacPolicy} allows an {@link ApiRequest}, with Kubernetes'
 * own matching semantics, written here independently of the code that derives the rules.
 *
 * <p>
 * A request is turned into the one rule it needs (one verb, group, resource or
 * {@code resource/subresource}, and name), and a role allows it when one of its rules
 * covers that rule, as {@code ruleCovers} in
 * {@code k8s.io/component-helpers/auth/rbac/validation} ({@code policy_comparator.go})
 * decides: the verbs are {@code *} or contain the verb; the groups are {@code *} or
 * contain the group; the resources are {@code *}, contain the resource exactly, or
 * contain {@code *}/subresource for a subresource ({@code resourceCoversAll}); and the
 * rule has no resource names, or lists the requested name. A rule with resource names
 * never covers a request without one, such as list or watch. The authorizer
 * ({@code plugin/pkg/auth/authorizer/rbac}, {@code RuleAllows} with the
 * {@code VerbMatches}, {@code APIGroupMatches}, {@code ResourceMatches} and
 * {@code ResourceNameMatches} helpers of {@code pkg/apis/rbac/v1/evaluation_helpers.go})
 * decides the same for one request. A ClusterRole applies in every namespace and to
 * cluster-scoped requests; a Role only to requests in its namespace.
 *
 * <p>
 * Non-resource requests (discovery, {@code /version}) are allowed: every authenticated
 * user has them through the default {@code system:discovery} and
 * {@code system:public-info-viewer} ClusterRoles.
 */
public final class RbacAuthorizer {

	private static final String ALL = "*";

	private static final Set<String> PUBLIC_PATHS = Set.of("/api", "/apis", "/version", "/healthz", "/livez", "/readyz",
			"/openapi/v2", "/openapi/v3");

	private RbacAuthorizer() {
	}

	/**
	 * Fail naming every request the policy does not allow, and the rules.
	 * @param policy the policy
	 * @param requests the recorded requests
	 */
	public static void assertAllowed(RbacPolicy policy, Collection<ApiRequest> requests) {
		List<ApiRequest> denied = requests.stream().filter((request) -> !allows(policy, request)).toList();
		if (!denied.isEmpty()) {
			fail("The derived RBAC rules do not allow a request the application made: " + denied.get(0)
					+ ((denied.size() > 1) ? "\nNor these: " + denied.subList(1, denied.size()) : "") + "\nRoles: "
					+ policy.roles());
		}
	}

	/**
	 * Return whether the policy allows a request.
	 * @param policy the policy
	 * @param request the request
	 * @return whether a role in scope has a rule that covers it
	 */
	public static boolean allows(RbacPolicy policy, ApiRequest request) {
		if (!request.isResourceRequest()) {
			return PUBLIC_PATHS.contains(request.path()) || request.path().startsWith("/apis/")
					|| request.path().startsWith("/api/") || request.path().startsWith("/openapi/");
		}
		String resource = request.subresource().isEmpty() ? request.resource()
				: request.resource() + "/" + request.subresource();
		PolicyRule needed = new PolicyRule(List.of(request.group()), List.of(resource), List.of(request.verb()),
				request.name().isEmpty() ? List.of() : List.of(request.name()));
		return policy.roles()
			.stream()
			.filter((role) -> role.clusterWide()
					|| (!request.namespace().isEmpty() && request.namespace().equals(role.namespace())))
			.flatMap((role) -> role.rules().stream())
			.anyMatch((rule) -> covers(rule, needed));
	}

	static boolean covers(PolicyRule owner, PolicyRule sub) {
		boolean verbs = owner.verbs().contains(ALL) || owner.verbs().containsAll(sub.verbs());
		boolean groups = owner.apiGroups().contains(ALL) || owner.apiGroups().containsAll(sub.apiGroups());
		boolean names = owner.resourceNames().isEmpty()
				|| (!sub.resourceNames().isEmpty() && owner.resourceNames().containsAll(sub.resourceNames()));
		return verbs && groups && resourcesCover(owner.resources(), sub.resources()) && names;
	}

	private static boolean resourcesCover(List<String> owner, List<String> sub) {
		if (owner.contains(ALL) || owner.containsAll(sub)) {
			return true;
		}
		for (String path : sub) {
			if (owner.contains(path)) {
				continue;
			}
			int slash = path.indexOf('/');
			if (slash < 0 || !owner.contains("*/" + path.substring(slash + 1))) {
				return false;
			}
		}
		return true;
	}

}
