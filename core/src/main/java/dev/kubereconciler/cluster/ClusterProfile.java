package dev.kubereconciler.cluster;

import java.util.List;

import io.kubernetes.client.openapi.models.V1Condition;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * A cluster of the Cluster Inventory API ({@code multicluster.x-k8s.io/v1alpha1}), as a
 * cluster manager publishes it in a namespace of the hub: the fields
 * {@link ClusterProfileProvider} reads.
 */
@ResourceCoordinates(group = ClusterProfile.GROUP, version = "v1alpha1", kind = "ClusterProfile",
		plural = "clusterprofiles")
public class ClusterProfile extends CustomResource<ClusterProfile.Spec, ClusterProfile.Status> {

	/** The API group of the Cluster Inventory API. */
	public static final String GROUP = "multicluster.x-k8s.io";

	/**
	 * The condition a cluster manager sets true while the cluster's control plane is
	 * healthy.
	 */
	public static final String CONTROL_PLANE_HEALTHY = "ControlPlaneHealthy";

	/**
	 * Return whether the profile's {@value #CONTROL_PLANE_HEALTHY} condition is
	 * {@code True}.
	 * @return {@code false} when the condition is false, unknown or missing
	 */
	public boolean controlPlaneHealthy() {
		Status status = getStatus();
		List<V1Condition> conditions = (status != null) ? status.conditions() : null;
		return conditions != null && conditions.stream()
			.anyMatch((condition) -> CONTROL_PLANE_HEALTHY.equals(condition.getType())
					&& "True".equals(condition.getStatus()));
	}

	/**
	 * The profile's spec.
	 *
	 * @param clusterManager the cluster manager that owns the profile
	 * @param displayName a name for people
	 */
	public record Spec(@Nullable ClusterManager clusterManager, @Nullable String displayName) {
	}

	/**
	 * The cluster manager that owns a profile.
	 *
	 * @param name its name
	 */
	public record ClusterManager(String name) {
	}

	/**
	 * What the cluster manager observed.
	 *
	 * @param conditions the cluster's conditions, such as
	 * {@value ClusterProfile#CONTROL_PLANE_HEALTHY}
	 */
	public record Status(@Nullable List<V1Condition> conditions) {
	}

}
