package dev.kubereconciler.internal.cache;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;

import dev.kubereconciler.reconcile.Request;

/**
 * Remembers which keys the informer last delivered as a resync, an update that changed
 * nothing, so that a reconcile can tell a resync from a change.
 */
public final class ResyncTracker implements ResourceEventHandler<KubernetesObject> {

	private final Set<Request> resynced = ConcurrentHashMap.newKeySet();

	@Override
	public void onAdd(KubernetesObject object) {
		changed(object);
	}

	@Override
	public void onUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
		if (oldObject != null && newObject != null && oldObject.getMetadata() != null && newObject.getMetadata() != null
				&& newObject.getMetadata().getResourceVersion() != null
				&& newObject.getMetadata().getResourceVersion().equals(oldObject.getMetadata().getResourceVersion())) {
			this.resynced.add(InformerCaches.keyOf(newObject.getMetadata()));
		}
		else {
			changed(newObject);
		}
	}

	@Override
	public void onDelete(KubernetesObject object, boolean finalStateUnknown) {
		changed(object);
	}

	private void changed(KubernetesObject object) {
		if (object != null && object.getMetadata() != null) {
			this.resynced.remove(InformerCaches.keyOf(object.getMetadata()));
		}
	}

	/**
	 * Return whether the informer last delivered a key as a resync, and forget it.
	 * @param request the key
	 * @return whether its last event was a resync
	 */
	public boolean take(Request request) {
		return this.resynced.remove(request);
	}

}
