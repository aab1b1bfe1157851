package dev.kubereconciler.cache;

import java.util.Map;

/**
 * The API groups of the built-in kinds outside the core group. client-java's model
 * classes are named by version and kind only ({@code V1Deployment}), and its
 * {@code ModelMapper} cannot tell their group without a discovery call to a live API
 * server.
 */
final class BuiltInGroups {

	private static final Map<String, String> GROUPS = Map.ofEntries(Map.entry("Deployment", "apps"),
			Map.entry("StatefulSet", "apps"), Map.entry("DaemonSet", "apps"), Map.entry("ReplicaSet", "apps"),
			Map.entry("ControllerRevision", "apps"), Map.entry("Job", "batch"), Map.entry("CronJob", "batch"),
			Map.entry("HorizontalPodAutoscaler", "autoscaling"), Map.entry("Ingress", "networking.k8s.io"),
			Map.entry("IngressClass", "networking.k8s.io"), Map.entry("NetworkPolicy", "networking.k8s.io"),
			Map.entry("IPAddress", "networking.k8s.io"), Map.entry("ServiceCIDR", "networking.k8s.io"),
			Map.entry("PodDisruptionBudget", "policy"), Map.entry("Role", "rbac.authorization.k8s.io"),
			Map.entry("RoleBinding", "rbac.authorization.k8s.io"),
			Map.entry("ClusterRole", "rbac.authorization.k8s.io"),
			Map.entry("ClusterRoleBinding", "rbac.authorization.k8s.io"), Map.entry("Lease", "coordination.k8s.io"),
			Map.entry("StorageClass", "storage.k8s.io"), Map.entry("CSIDriver", "storage.k8s.io"),
			Map.entry("CSINode", "storage.k8s.io"), Map.entry("VolumeAttachment", "storage.k8s.io"),
			Map.entry("CSIStorageCapacity", "storage.k8s.io"), Map.entry("VolumeAttributesClass", "storage.k8s.io"),
			Map.entry("CustomResourceDefinition", "apiextensions.k8s.io"),
			Map.entry("APIService", "apiregistration.k8s.io"),
			Map.entry("MutatingWebhookConfiguration", "admissionregistration.k8s.io"),
			Map.entry("ValidatingWebhookConfiguration", "admissionregistration.k8s.io"),
			Map.entry("ValidatingAdmissionPolicy", "admissionregistration.k8s.io"),
			Map.entry("ValidatingAdmissionPolicyBinding", "admissionregistration.k8s.io"),
			Map.entry("PriorityClass", "scheduling.k8s.io"), Map.entry("RuntimeClass", "node.k8s.io"),
			Map.entry("EndpointSlice", "discovery.k8s.io"),
			Map.entry("CertificateSigningRequest", "certificates.k8s.io"),
			Map.entry("FlowSchema", "flowcontrol.apiserver.k8s.io"),
			Map.entry("PriorityLevelConfiguration", "flowcontrol.apiserver.k8s.io"),
			Map.entry("ResourceClaim", "resource.k8s.io"), Map.entry("ResourceClaimTemplate", "resource.k8s.io"),
			Map.entry("DeviceClass", "resource.k8s.io"), Map.entry("ResourceSlice", "resource.k8s.io"));

	private BuiltInGroups() {
	}

	/**
	 * Return the group of a built-in model class that client-java reports in the core
	 * group.
	 * @param modelClass the client-java model class, such as {@code V1Deployment}
	 * @param kind its kind
	 * @return the group, or {@code ""} for the core group
	 */
	static String of(Class<?> modelClass, String kind) {
		if (!modelClass.getName().startsWith("io.kubernetes.client.openapi.models.")
				|| modelClass.getSimpleName().startsWith("CoreV1")) {
			return "";
		}
		return GROUPS.getOrDefault(kind, "");
	}

}
