package dev.kubereconciler.rbac;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.util.Yaml;

/**
 * Renders an {@link RbacPolicy} as Kubernetes objects: each role with a binding to the
 * application's ServiceAccount.
 */
public final class RbacManifests {

	private static final String RBAC_GROUP = "rbac.authorization.k8s.io";

	private RbacManifests() {
	}

	/**
	 * Return the roles and their bindings.
	 * @param policy the policy
	 * @param name the application name, which prefixes every role's name
	 * @param serviceAccountNamespace the namespace of the ServiceAccount named
	 * {@code name}
	 * @return the objects, roles first, each followed by its binding
	 */
	public static List<KubernetesObject> objects(RbacPolicy policy, String name, String serviceAccountNamespace) {
		List<KubernetesObject> objects = new ArrayList<>();
		RbacV1Subject subject = new RbacV1Subject().kind("ServiceAccount")
			.name(name)
			.namespace(serviceAccountNamespace);
		for (RbacPolicy.Role role : policy.roles()) {
			String roleName = name + "-" + role.purpose();
			List<V1PolicyRule> rules = role.rules().stream().map(RbacManifests::rule).toList();
			if (role.clusterWide()) {
				objects.add(new V1ClusterRole().apiVersion(RBAC_GROUP + "/v1")
					.kind("ClusterRole")
					.metadata(new V1ObjectMeta().name(roleName))
					.rules(rules));
				objects.add(new V1ClusterRoleBinding().apiVersion(RBAC_GROUP + "/v1")
					.kind("ClusterRoleBinding")
					.metadata(new V1ObjectMeta().name(roleName))
					.roleRef(new V1RoleRef().apiGroup(RBAC_GROUP).kind("ClusterRole").name(roleName))
					.subjects(List.of(subject)));
			}
			else {
				V1ObjectMeta metadata = new V1ObjectMeta().name(roleName).namespace(role.namespace());
				objects.add(new V1Role().apiVersion(RBAC_GROUP + "/v1").kind("Role").metadata(metadata).rules(rules));
				objects.add(new V1RoleBinding().apiVersion(RBAC_GROUP + "/v1")
					.kind("RoleBinding")
					.metadata(new V1ObjectMeta().name(roleName).namespace(role.namespace()))
					.roleRef(new V1RoleRef().apiGroup(RBAC_GROUP).kind("Role").name(roleName))
					.subjects(List.of(subject)));
			}
		}
		return objects;
	}

	/**
	 * Return the roles and bindings as one multi-document YAML.
	 * @param policy the policy
	 * @param name the application name
	 * @param serviceAccountNamespace the namespace of the ServiceAccount
	 * @return the YAML
	 */
	public static String yaml(RbacPolicy policy, String name, String serviceAccountNamespace) {
		return Yaml.dumpAll(objects(policy, name, serviceAccountNamespace).iterator());
	}

	private static V1PolicyRule rule(PolicyRule rule) {
		V1PolicyRule rendered = new V1PolicyRule().apiGroups(rule.apiGroups())
			.resources(rule.resources())
			.verbs(rule.verbs());
		return rule.resourceNames().isEmpty() ? rendered : rendered.resourceNames(rule.resourceNames());
	}

}
