package dev.kubereconciler.reconcile;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Cleans up after an object whose deletion was requested, while the controller's
 * finalizer still holds it.
 *
 * <p>
 * A done result, {@link Result#done()} with or without a priority, removes the finalizer,
 * so the object goes away. An exception keeps the finalizer and retries the cleanup
 * through the controller's rate limiter; {@link Result#requeue()} and
 * {@link Result#requeueAfter} keep it too and run the cleanup again later. A {@code null}
 * keeps the finalizer and counts as an error, retried through the rate limiter.
 *
 * @param <T> the watched type
 */
@FunctionalInterface
public interface Cleaner<T extends KubernetesObject> {

	/**
	 * Clean up after an object that is being deleted.
	 * @param object a copy of the cached object, with its deletion timestamp set
	 * @param context reads, writes and details of this reconcile
	 * @return a done result to remove the finalizer, or a requeue to keep it
	 * @throws Exception any failure, retried through the rate limiter
	 */
	Result cleanup(T object, ReconcileContext<T> context) throws Exception;

}
