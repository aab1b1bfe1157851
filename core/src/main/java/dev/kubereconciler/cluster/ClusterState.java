package dev.kubereconciler.cluster;

/**
 * Where an engaged cluster stands.
 */
public enum ClusterState {

	/** Its informers run and have not all synced yet. */
	SYNCING,

	/** Every informer of the fleet's controllers synced. */
	READY,

	/**
	 * Its API server did not answer an informer's last list or watch; the informers retry
	 * with backoff, and the cluster is ready again once the server answers.
	 */
	UNREACHABLE

}
