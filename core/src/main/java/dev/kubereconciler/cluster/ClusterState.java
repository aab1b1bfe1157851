package dev.kubereconciler.cluster;

/**
 * Where an engaged cluster stands.
 */
public enum ClusterState {

	/** Its informers run and have not all synced yet. */
	SYNCING,

	/** Every informer of the fleet's controllers synced. */
	READY

}
