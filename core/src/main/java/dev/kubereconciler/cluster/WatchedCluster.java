package dev.kubereconciler.cluster;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The cluster a mapped watch watches: each cluster its controller runs on, mapping within
 * it (the default), or one cluster whose changes map across, to requests that name the
 * cluster of their object, as multicluster-runtime's sources watch one cluster and
 * enqueue requests carrying a cluster name.
 */
public final class WatchedCluster {

	private static final WatchedCluster OWN = new WatchedCluster(null);

	private static final WatchedCluster LOCAL = new WatchedCluster("");

	// null: each cluster the controller runs on; empty: the local cluster
	private final @Nullable String name;

	private WatchedCluster(@Nullable String name) {
		this.name = name;
	}

	/**
	 * Watch in each cluster the controller runs on, and reconcile the mapped keys in the
	 * cluster of the changed object, whatever cluster the mapper's requests name: what a
	 * mapped watch does unless told otherwise.
	 * @return the default
	 */
	public static WatchedCluster own() {
		return OWN;
	}

	/**
	 * Watch the manager's own cluster (the hub) once, whatever clusters the controller
	 * runs on, and reconcile each request the mapper returns in the cluster it names
	 * (empty for the local cluster).
	 * @return the local cluster
	 */
	public static WatchedCluster local() {
		return LOCAL;
	}

	/**
	 * Watch one engaged cluster of the fleet while it is engaged, and reconcile each
	 * request the mapper returns in the cluster it names (empty for the local cluster).
	 * @param cluster the engaged cluster's name
	 * @return that cluster
	 * @throws IllegalArgumentException if the name is empty, which names the local
	 * cluster: use {@link #local()}
	 */
	public static WatchedCluster named(String cluster) {
		Objects.requireNonNull(cluster, "cluster must not be null");
		if (cluster.isBlank()) {
			throw new IllegalArgumentException(
					"A watched cluster's name must not be empty; watch the local cluster with WatchedCluster.local()");
		}
		return new WatchedCluster(cluster);
	}

	/**
	 * Return whether the watch runs in each cluster its controller runs on and maps
	 * within it.
	 * @return {@code true} for {@link #own()}
	 */
	public boolean isOwn() {
		return this.name == null;
	}

	/**
	 * Return whether a watch that maps across clusters runs in a cluster.
	 * @param cluster the cluster's name, empty for the local one
	 * @return {@code true} when this names that cluster; {@code false} for {@link #own()}
	 */
	public boolean is(String cluster) {
		return cluster.equals(this.name);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof WatchedCluster watched && Objects.equals(this.name, watched.name);
	}

	@Override
	public int hashCode() {
		return Objects.hashCode(this.name);
	}

	@Override
	public String toString() {
		String name = this.name;
		return (name == null) ? "own" : name.isEmpty() ? "local" : name;
	}

}
