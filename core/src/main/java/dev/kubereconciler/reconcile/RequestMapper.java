package dev.kubereconciler.reconcile;

import java.util.Collection;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Maps an object of a watched secondary type to the keys of the primary objects to
 * reconcile, as controller-runtime's {@code handler.EnqueueRequestsFromMapFunc}: for
 * example, a Secret to every Widget that references it.
 *
 * @param <T> the watched type
 */
@FunctionalInterface
public interface RequestMapper<T extends KubernetesObject> {

	/**
	 * Return the keys to reconcile for an object that was created, updated or deleted.
	 * Called on an informer thread: read caches, do not call the API server.
	 * @param object the object; for an update it is called for the old and for the new
	 * object
	 * @return the keys, never {@code null}
	 */
	Collection<Request> map(T object);

}
