package dev.kubereconciler.reconcile;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Reconcile logic that receives the object itself: a private deep copy of the cached
 * object, and a {@link ReconcileContext}. It is not called once the object is gone from
 * the cache.
 *
 * @param <T> the watched type
 */
@FunctionalInterface
public interface ObjectReconciler<T extends KubernetesObject> {

	/**
	 * Reconcile an object.
	 * @param object a copy of the cached object, the caller's to change
	 * @param context reads, writes and details of this reconcile
	 * @return what to do next; {@code null} is treated as an error
	 * @throws Exception any failure, retried through the rate limiter
	 */
	Result reconcile(T object, ReconcileContext<T> context) throws Exception;

}
