package dev.kubereconciler.cluster;

/**
 * Where a controller reconciles: on the manager's own cluster, on the engaged clusters of
 * the fleet, or on both.
 */
public enum ClusterScope {

	/**
	 * The manager's own cluster only, the default: what a controller did before fleets.
	 */
	LOCAL,

	/** Every engaged cluster, not the manager's own. */
	FLEET,

	/** The manager's own cluster and every engaged one. */
	BOTH;

	/**
	 * Return whether the controller runs on the manager's own cluster.
	 * @return {@code true} for {@link #LOCAL} and {@link #BOTH}
	 */
	public boolean includesLocal() {
		return this != FLEET;
	}

	/**
	 * Return whether the controller runs on the engaged clusters.
	 * @return {@code true} for {@link #FLEET} and {@link #BOTH}
	 */
	public boolean includesFleet() {
		return this != LOCAL;
	}

}
