package dev.kubereconciler.reconcile;

import java.util.Objects;

/**
 * Identifies the object to reconcile: its namespace (empty for cluster-scoped objects),
 * its name, and the cluster it lives in (empty for the manager's own cluster), as
 * multicluster-runtime's request carries a cluster name beside controller-runtime's.
 *
 * @param namespace the namespace, or an empty string for cluster-scoped objects
 * @param name the name
 * @param cluster the name of the engaged cluster the object lives in, or an empty string
 * for the local cluster
 */
public record Request(String namespace, String name, String cluster) {

	public Request {
		Objects.requireNonNull(namespace, "namespace must not be null");
		Objects.requireNonNull(name, "name must not be null");
		Objects.requireNonNull(cluster, "cluster must not be null");
	}

	/**
	 * Create a request for an object of the local cluster.
	 * @param namespace the namespace, or an empty string for cluster-scoped objects
	 * @param name the name
	 */
	public Request(String namespace, String name) {
		this(namespace, name, "");
	}

	/**
	 * Parse a {@code namespace/name} or {@code name} key, as client-java's cache keys are
	 * written, of an object of the local cluster.
	 * @param key the key
	 * @return the request
	 */
	public static Request fromKey(String key) {
		int slash = key.indexOf('/');
		return (slash < 0) ? new Request("", key) : new Request(key.substring(0, slash), key.substring(slash + 1));
	}

	/**
	 * Return the {@code namespace/name} key, or {@code name} for cluster-scoped objects;
	 * it does not name the cluster, as an informer's cache key does not.
	 * @return the key
	 */
	public String key() {
		return this.namespace.isEmpty() ? this.name : this.namespace + "/" + this.name;
	}

	/**
	 * Return this request for the same namespace and name in another cluster.
	 * @param cluster the cluster's name, or an empty string for the local cluster
	 * @return the request
	 */
	public Request inCluster(String cluster) {
		return cluster.equals(this.cluster) ? this : new Request(this.namespace, this.name, cluster);
	}

	/**
	 * Return whether the object lives in the manager's own cluster.
	 * @return {@code true} when {@link #cluster()} is empty
	 */
	public boolean isLocal() {
		return this.cluster.isEmpty();
	}

	@Override
	public String toString() {
		return this.cluster.isEmpty() ? key() : this.cluster + ":" + key();
	}

}
