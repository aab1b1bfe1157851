package dev.kubereconciler.cluster;

import java.util.Objects;

/**
 * What can be seen of one engaged cluster: its state and how many informers it runs.
 *
 * @param name the cluster's name
 * @param state where it stands
 * @param informers the number of informers running for it
 */
public record ClusterStatus(String name, ClusterState state, int informers) {

	public ClusterStatus {
		Objects.requireNonNull(name, "name must not be null");
		Objects.requireNonNull(state, "state must not be null");
	}

}
