package dev.kubereconciler.internal.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.reconcile.AlreadyOwnedException;
import dev.kubereconciler.reconcile.KubernetesObjects;

/**
 * The controller owner reference, one rule for the reconcile context and the dependents,
 * as controller-runtime's {@code controllerutil.SetControllerReference} serves every
 * caller: no reference across namespaces or from a cluster-scoped object to a namespaced
 * owner, one controller owner per object ({@link AlreadyOwnedException} names the other),
 * and a reference to the same owner (API group, kind and name) replaced where it stands,
 * as {@code upsertOwnerRef} does.
 */
public final class ControllerReferences {

	private ControllerReferences() {
	}

	/**
	 * Make an owner the controller owner of an object.
	 * @param owner the owner, which must have a uid
	 * @param owned the owned object, whose references this changes
	 * @throws AlreadyOwnedException if another object is already its controller owner
	 * @throws IllegalArgumentException if the namespaces do not allow the reference
	 */
	public static void set(KubernetesObject owner, KubernetesObject owned) {
		V1ObjectMeta ownerMetadata = Objects.requireNonNull(owner.getMetadata(), "owner must have metadata");
		V1ObjectMeta ownedMetadata = Objects.requireNonNull(owned.getMetadata(), "owned object must have metadata");
		String ownerNamespace = Objects.requireNonNullElse(ownerMetadata.getNamespace(), "");
		String ownedNamespace = Objects.requireNonNullElse(ownedMetadata.getNamespace(), "");
		if (!ownerNamespace.isEmpty()) {
			if (ownedNamespace.isEmpty()) {
				throw new IllegalArgumentException("Cluster-scoped " + KubernetesObjects.describe(owned)
						+ " cannot be owned by namespaced " + KubernetesObjects.describe(owner));
			}
			if (!ownerNamespace.equals(ownedNamespace)) {
				throw new IllegalArgumentException(KubernetesObjects.describe(owned) + " in namespace " + ownedNamespace
						+ " cannot be owned by " + KubernetesObjects.describe(owner) + " in namespace " + ownerNamespace
						+ ": owner references cannot cross namespaces");
			}
		}
		V1OwnerReference reference = reference(owner);
		checkNotOwnedByAnother(reference, owned);
		List<V1OwnerReference> references = (ownedMetadata.getOwnerReferences() != null)
				? new ArrayList<>(ownedMetadata.getOwnerReferences()) : new ArrayList<>();
		// replaced in place, as controller-runtime's upsertOwnerRef does: the order
		// of the references does not change
		int index = -1;
		for (int i = 0; i < references.size(); i++) {
			if (sameOwner(references.get(i), reference)) {
				index = i;
				break;
			}
		}
		if (index < 0) {
			references.add(reference);
		}
		else {
			references.set(index, reference);
		}
		ownedMetadata.setOwnerReferences(references);
	}

	/**
	 * Refuse an object, such as the server's version of one about to be applied, whose
	 * controller owner is another object than this owner.
	 * @param owner the owner, which must have a uid
	 * @param object the object, or {@code null} for none
	 * @throws AlreadyOwnedException if another object is its controller owner
	 */
	public static void checkNotOwnedByAnother(KubernetesObject owner, @Nullable KubernetesObject object) {
		if (object != null && object.getMetadata() != null) {
			checkNotOwnedByAnother(reference(owner), object);
		}
	}

	private static void checkNotOwnedByAnother(V1OwnerReference reference, KubernetesObject owned) {
		List<V1OwnerReference> references = owned.getMetadata().getOwnerReferences();
		if (references == null) {
			return;
		}
		for (V1OwnerReference existing : references) {
			if (Boolean.TRUE.equals(existing.getController()) && !sameOwner(existing, reference)) {
				throw new AlreadyOwnedException(KubernetesObjects.describe(owned),
						existing.getKind() + "/" + existing.getName());
			}
		}
	}

	private static V1OwnerReference reference(KubernetesObject owner) {
		ResourceType ownerType = ResourceType.of(owner.getClass());
		V1ObjectMeta metadata = owner.getMetadata();
		return new V1OwnerReference().apiVersion(ownerType.apiVersion())
			.kind(ownerType.kind())
			.name(metadata.getName())
			.uid(Objects.requireNonNull(metadata.getUid(), "owner must have metadata.uid"))
			.controller(true)
			.blockOwnerDeletion(true);
	}

	/**
	 * Whether two references name the same object, as controller-runtime compares them:
	 * by API group, kind and name.
	 */
	private static boolean sameOwner(V1OwnerReference a, V1OwnerReference b) {
		return group(a.getApiVersion()).equals(group(b.getApiVersion())) && Objects.equals(a.getKind(), b.getKind())
				&& Objects.equals(a.getName(), b.getName());
	}

	private static String group(@Nullable String apiVersion) {
		if (apiVersion == null) {
			return "";
		}
		int slash = apiVersion.indexOf('/');
		return (slash < 0) ? "" : apiVersion.substring(0, slash);
	}

}
