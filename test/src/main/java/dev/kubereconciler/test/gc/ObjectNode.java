package dev.kubereconciler.test.gc;

import java.util.List;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;

/**
 * An object as the collector last saw it, by its metadata.
 *
 * @param type its resource
 * @param metadata its metadata
 */
record ObjectNode(ResourceType type, V1ObjectMeta metadata) {

	static final String FOREGROUND = "foregroundDeletion";

	static final String ORPHAN = "orphan";

	String uid() {
		return this.metadata.getUid();
	}

	@Nullable String namespace() {
		return this.metadata.getNamespace();
	}

	String name() {
		return this.metadata.getName();
	}

	List<V1OwnerReference> owners() {
		List<V1OwnerReference> owners = this.metadata.getOwnerReferences();
		return (owners != null) ? owners : List.of();
	}

	/**
	 * Being deleted in the foreground: it waits for the collector to delete its
	 * dependents.
	 */
	boolean deletingDependents() {
		return isBeingDeletedWith(this.metadata, FOREGROUND);
	}

	/**
	 * Being deleted with orphan propagation: it waits for its dependents to let go of it.
	 */
	boolean orphaningDependents() {
		return isBeingDeletedWith(this.metadata, ORPHAN);
	}

	static boolean isBeingDeletedWith(V1ObjectMeta metadata, String finalizer) {
		return metadata.getDeletionTimestamp() != null && metadata.getFinalizers() != null
				&& metadata.getFinalizers().contains(finalizer);
	}

	/** Whether this object is the one a reference names, by uid, name and kind. */
	boolean isReferencedBy(V1OwnerReference reference) {
		return uid().equals(reference.getUid()) && name().equals(reference.getName())
				&& this.type.kind().equals(reference.getKind())
				&& group(this.type.apiVersion()).equals(group(reference.getApiVersion()));
	}

	private static String group(String apiVersion) {
		int slash = apiVersion.indexOf('/');
		return (slash < 0) ? "" : apiVersion.substring(0, slash);
	}

}
