package dev.kubereconciler.rbac;

import java.util.List;
import java.util.Objects;

/**
 * One RBAC rule, as in {@code rbac.authorization.k8s.io/v1} {@code PolicyRule}: the verbs
 * it allows on the resources of the API groups, optionally limited to named objects.
 *
 * @param apiGroups the API groups, {@code ""} for the core group, {@code *} for all
 * @param resources the plural resource names, {@code configmaps}, or with a subresource,
 * {@code widgets/status}; {@code *} for all
 * @param verbs the verbs: get, list, watch, create, update, patch, delete,
 * deletecollection; or {@code *}
 * @param resourceNames the object names the rule is limited to; empty for every object
 */
public record PolicyRule(List<String> apiGroups, List<String> resources, List<String> verbs,
		List<String> resourceNames) {

	public PolicyRule {
		apiGroups = List.copyOf(Objects.requireNonNull(apiGroups, "apiGroups must not be null"));
		resources = List.copyOf(Objects.requireNonNull(resources, "resources must not be null"));
		verbs = List.copyOf(Objects.requireNonNull(verbs, "verbs must not be null"));
		resourceNames = (resourceNames != null) ? List.copyOf(resourceNames) : List.of();
		if (apiGroups.isEmpty() || resources.isEmpty() || verbs.isEmpty()) {
			throw new IllegalArgumentException("A rule needs at least one API group, resource and verb, was "
					+ apiGroups + " " + resources + " " + verbs);
		}
	}

	/**
	 * Create a rule for one resource of one group, on every object.
	 * @param group the API group, {@code ""} for the core group
	 * @param resource the resource, optionally with {@code /subresource}
	 * @param verbs the verbs
	 * @return the rule
	 */
	public static PolicyRule of(String group, String resource, String... verbs) {
		return new PolicyRule(List.of(group), List.of(resource), List.of(verbs), List.of());
	}

}
