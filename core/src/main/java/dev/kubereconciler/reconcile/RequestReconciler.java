package dev.kubereconciler.reconcile;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Reconcile logic that receives the request and a {@link ReconcileContext}; it is called
 * even when the object is gone, so that it can clean up what the object left behind.
 *
 * @param <T> the watched type
 */
@FunctionalInterface
public interface RequestReconciler<T extends KubernetesObject> {

	/**
	 * Reconcile the object named by the request.
	 * @param request the namespace and name of the object
	 * @param context reads, writes and details of this reconcile
	 * @return what to do next; {@code null} is treated as an error
	 * @throws Exception any failure, retried through the rate limiter
	 */
	Result reconcile(Request request, ReconcileContext<T> context) throws Exception;

}
