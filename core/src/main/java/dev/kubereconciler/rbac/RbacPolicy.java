package dev.kubereconciler.rbac;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The roles an application needs: a ClusterRole, or one Role per namespace, plus a Role
 * for its leases.
 *
 * @param roles the roles
 */
public record RbacPolicy(List<Role> roles) {

	/** The purpose of the role that holds the controllers' rules. */
	public static final String CONTROLLERS = "controllers";

	/** The purpose of the role that holds the rules on leases. */
	public static final String LEADER_ELECTION = "leader-election";

	/** The purpose of the role that holds the rules on sharding's leases. */
	public static final String SHARDING = "sharding";

	/**
	 * The purpose of the ClusterRole that lets namespaced controllers read the types
	 * their informers list in every namespace, because controllers in more than one
	 * namespace share one informer per type.
	 */
	public static final String CLUSTER_READS = "cluster-reads";

	/**
	 * The purpose of the ClusterRole that holds the rules on cluster-scoped resources,
	 * such as webhook configurations and CRDs, when the controllers' rules are Roles,
	 * which cannot grant them.
	 */
	public static final String CLUSTER_RESOURCES = "cluster-resources";

	/**
	 * The purpose of the Role that lets the cluster providers read, on the local cluster,
	 * the kubeconfig Secrets or ClusterProfiles of their namespace.
	 */
	public static final String CLUSTER_PROVIDERS = "cluster-providers";

	public RbacPolicy {
		roles = List.copyOf(roles);
	}

	/**
	 * Return whether the controllers' rules are granted cluster-wide.
	 * @return whether there is a ClusterRole
	 */
	public boolean clusterWide() {
		return this.roles.stream().anyMatch(Role::clusterWide);
	}

	/**
	 * One role.
	 *
	 * @param purpose {@link #CONTROLLERS}, {@link #LEADER_ELECTION}, {@link #SHARDING},
	 * {@link #CLUSTER_READS}, {@link #CLUSTER_RESOURCES} or {@link #CLUSTER_PROVIDERS},
	 * which names the role
	 * @param namespace the namespace of a Role, {@code null} for a ClusterRole
	 * @param rules the rules
	 */
	public record Role(String purpose, @Nullable String namespace, List<PolicyRule> rules) {

		public Role {
			rules = List.copyOf(rules);
		}

		/**
		 * Return whether this is a ClusterRole.
		 * @return whether the role has no namespace
		 */
		public boolean clusterWide() {
			return this.namespace == null;
		}

	}

}
