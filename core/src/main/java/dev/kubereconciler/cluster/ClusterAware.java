package dev.kubereconciler.cluster;

import io.kubernetes.client.openapi.ApiClient;

/**
 * What a {@link ClusterProvider} tells of the clusters it discovers, as
 * multicluster-runtime's {@code multicluster.Aware}: the manager implements it, starting
 * a cluster's informers, client and Event recorder on {@link #engage} and stopping and
 * releasing them on {@link #disengage}.
 */
public interface ClusterAware {

	/**
	 * Engage a cluster: its informers start for the types the fleet's controllers use,
	 * and their objects are reconciled with requests that carry its name. Engaging a name
	 * that is engaged with another client disengages the old one first; engaging it again
	 * with the same client does nothing. Returns without waiting for the cluster to
	 * answer: the informers of an unreachable cluster retry on their own.
	 * @param name the cluster's name, not empty, unique in the manager
	 * @param client the client for the cluster's API server, with no read timeout
	 * @throws IllegalArgumentException if the name is empty
	 */
	void engage(String name, ApiClient client);

	/**
	 * Disengage a cluster: its informers stop, its caches are released, and keys still
	 * queued for it are dropped. Does nothing for a name that is not engaged.
	 * @param name the cluster's name
	 */
	void disengage(String name);

}
