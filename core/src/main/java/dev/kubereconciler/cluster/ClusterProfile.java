package dev.kubereconciler.cluster;

import java.util.List;

import com.google.gson.annotations.SerializedName;
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
	 * @param credentialProviders the access providers under their deprecated name, read
	 * as upstream reads them: an access provider of the same name wins
	 * @param accessProviders how the cluster can be reached, one entry per access
	 * provider
	 */
	public record Status(@Nullable List<V1Condition> conditions, @Nullable List<AccessProvider> credentialProviders,
			@Nullable List<AccessProvider> accessProviders) {

		/**
		 * Create a status with conditions only.
		 * @param conditions the cluster's conditions
		 */
		public Status(@Nullable List<V1Condition> conditions) {
			this(conditions, null, null);
		}

	}

	/**
	 * One way to reach the cluster: the access provider's name, which the consumer maps
	 * to an exec plugin, and where the cluster's API server is.
	 *
	 * @param name the access provider's name
	 * @param cluster the cluster's API server, as a kubeconfig's {@code cluster}
	 */
	public record AccessProvider(String name, @Nullable Cluster cluster) {
	}

	/**
	 * A cluster's API server as a kubeconfig's {@code cluster} entry holds it.
	 *
	 * @param server the API server's URL
	 * @param certificateAuthorityData the CA bundle, PEM, base64-encoded as in a
	 * kubeconfig
	 * @param tlsServerName the name to verify the server's certificate against
	 * @param insecureSkipTlsVerify whether the server's certificate goes unverified
	 * @param extensions named extensions; {@value AccessProviders#EXEC_EXTENSION} is
	 * handed to the exec plugin as the cluster's {@code config}
	 */
	public record Cluster(String server,
			@SerializedName("certificate-authority-data") @Nullable String certificateAuthorityData,
			@SerializedName("tls-server-name") @Nullable String tlsServerName,
			@SerializedName("insecure-skip-tls-verify") @Nullable Boolean insecureSkipTlsVerify,
			@Nullable List<NamedExtension> extensions) {
	}

	/**
	 * A named extension of a kubeconfig entry.
	 *
	 * @param name its name
	 * @param extension its value, any JSON object
	 */
	public record NamedExtension(String name, @Nullable Object extension) {
	}

}
