package dev.kubereconciler.rbac;

import java.util.Collection;
import java.util.List;

import dev.kubereconciler.cluster.ClusterProfile;
import dev.kubereconciler.cluster.ClusterProfileProvider;
import dev.kubereconciler.cluster.ClusterProvider;
import dev.kubereconciler.cluster.KubeconfigSecretProvider;
import dev.kubereconciler.controller.ControllerDefinition;

/**
 * Splits the rules of a manager with a fleet by cluster: what it needs in each member
 * cluster, and what it needs in its own (the hub).
 *
 * <p>
 * A member gets the rules of the controllers whose scope includes the fleet, derived as
 * {@link ControllerRbac} derives them for one cluster; the hub gets those of the
 * controllers whose scope includes the local cluster, and the reads of the cluster
 * providers: list and watch on the Secrets (and ClusterProfiles) of a provider's
 * namespace, get on a kubeconfig Secret named by a static cluster.
 */
public final class FleetRbac {

	private static final List<String> LIST_WATCH = List.of("list", "watch");

	private FleetRbac() {
	}

	/**
	 * Derive the rules every member cluster needs.
	 * @param definitions all the manager's controllers
	 * @return the rules of the controllers that run on the fleet
	 */
	public static RbacRules members(Collection<ControllerDefinition> definitions) {
		return ControllerRbac.derive(onFleet(definitions));
	}

	/**
	 * Derive the rules of the controllers that run on the local cluster, to which the
	 * providers' reads, leases and user rules can still be added.
	 * @param definitions all the manager's controllers
	 * @return the rules of the controllers that run on the local cluster
	 */
	public static RbacRules local(Collection<ControllerDefinition> definitions) {
		return ControllerRbac.derive(onLocal(definitions));
	}

	/**
	 * Return the controllers that run on the fleet.
	 * @param definitions all the manager's controllers
	 * @return those whose scope is {@code FLEET} or {@code BOTH}
	 */
	public static List<ControllerDefinition> onFleet(Collection<ControllerDefinition> definitions) {
		return definitions.stream().filter((definition) -> definition.clusters().includesFleet()).toList();
	}

	/**
	 * Return the controllers that run on the local cluster.
	 * @param definitions all the manager's controllers
	 * @return those whose scope is {@code LOCAL} or {@code BOTH}
	 */
	public static List<ControllerDefinition> onLocal(Collection<ControllerDefinition> definitions) {
		return definitions.stream().filter((definition) -> definition.clusters().includesLocal()).toList();
	}

	/**
	 * Add what the cluster providers read on the local cluster. A provider of the
	 * application's own adds its reads with a customizer of the rules.
	 * @param rules the local cluster's rules
	 * @param providers the manager's cluster providers
	 * @return the rules
	 */
	public static RbacRules providers(RbacRules rules, Collection<? extends ClusterProvider> providers) {
		for (ClusterProvider provider : providers) {
			// informers only: list and watch, no get
			if (provider instanceof KubeconfigSecretProvider secrets) {
				rules.providerReads(secrets.namespace(),
						new PolicyRule(List.of(""), List.of("secrets"), LIST_WATCH, List.of()));
			}
			else if (provider instanceof ClusterProfileProvider profiles) {
				rules.providerReads(profiles.namespace(), new PolicyRule(List.of(ClusterProfile.GROUP),
						List.of("clusterprofiles"), LIST_WATCH, List.of()));
				rules.providerReads(profiles.namespace(),
						new PolicyRule(List.of(""), List.of("secrets"), LIST_WATCH, List.of()));
			}
		}
		return rules;
	}

	/**
	 * Add get on one kubeconfig Secret, read once when a static cluster is engaged.
	 * @param rules the local cluster's rules
	 * @param namespace the Secret's namespace
	 * @param name the Secret's name
	 * @return the rules
	 */
	public static RbacRules kubeconfigSecret(RbacRules rules, String namespace, String name) {
		return rules.providerReads(namespace,
				new PolicyRule(List.of(""), List.of("secrets"), List.of("get"), List.of(name)));
	}

}
