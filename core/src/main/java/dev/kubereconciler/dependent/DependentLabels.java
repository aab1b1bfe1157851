package dev.kubereconciler.dependent;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.reconcile.Request;

/**
 * The labels and annotations that mark the objects a controller applied for its
 * dependents, to select them with {@code kubectl -l} or in a test.
 */
public final class DependentLabels {

	/**
	 * The label that holds the primary's ApplySet id, as KEP-3659 marks the members of a
	 * set: {@code applyset-<base64url(sha256(<name>.<namespace>.<kind>.<group>))>-v1}.
	 */
	public static final String PART_OF = "applyset.kubernetes.io/part-of";

	/** The label that holds the name of the dependent that applied the object. */
	public static final String DEPENDENT = "dependents.kubereconciler.dev/name";

	/** The annotation that holds the hash of the desired state last applied. */
	public static final String DESIRED_HASH = "dependents.kubereconciler.dev/desired-hash";

	/**
	 * The annotation that holds the primary's uid on an object no owner reference from
	 * the primary can reach: cluster-scoped, or in another namespace.
	 */
	public static final String OWNER_UID = "dependents.kubereconciler.dev/owner-uid";

	/**
	 * The annotation that holds the primary's {@code namespace/name} on such an object,
	 * so that its changes reconcile the primary.
	 */
	public static final String OWNER = "dependents.kubereconciler.dev/owner";

	private DependentLabels() {
	}

	/**
	 * Return the primary that an object names in its {@link #OWNER} annotation.
	 * @param object an object a dependent applied
	 * @return the primary's key, or none for an object an owner reference reaches
	 */
	public static List<Request> owner(KubernetesObject object) {
		Map<String, String> annotations = (object.getMetadata() != null) ? object.getMetadata().getAnnotations() : null;
		String owner = (annotations != null) ? annotations.get(OWNER) : null;
		return (owner != null) ? List.of(Request.fromKey(owner)) : List.of();
	}

}
