package dev.kubereconciler.cluster;

/**
 * Where an engaged cluster stands.
 */
public enum ClusterState {

	/** Its informers run and have not all synced yet, or lost their watch and retry. */
	SYNCING,

	/** Every informer of the fleet's controllers synced. */
	READY,

	/**
	 * Its API server did not answer the informers' last requests; they retry with
	 * backoff, and the other clusters go on.
	 */
	UNREACHABLE

}
