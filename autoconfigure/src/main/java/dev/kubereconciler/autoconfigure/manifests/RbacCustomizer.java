package dev.kubereconciler.autoconfigure.manifests;

import dev.kubereconciler.rbac.RbacRules;

/**
 * Callback to add RBAC rules for what the application's own code calls, or a feature's
 * input, before the rules are calculated.
 */
@FunctionalInterface
public interface RbacCustomizer {

	/**
	 * Add to the rules.
	 * @param rules the rules derived from the controllers so far
	 */
	void customize(RbacRules rules);

	/**
	 * Add to the rules of every member cluster of the fleet, for what the application's
	 * own code calls there; {@link #customize} adds to the local cluster's.
	 * @param rules the rules derived from the fleet's controllers so far
	 */
	default void customizeMembers(RbacRules rules) {
	}

}
