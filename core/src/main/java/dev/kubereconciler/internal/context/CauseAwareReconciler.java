package dev.kubereconciler.internal.context;

import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;

/**
 * A reconcile function that is told why its key was queued; the worker knows the cause of
 * the add it took the key for, and passes it on instead of the queue keeping it for a
 * lookup.
 */
public interface CauseAwareReconciler extends ReconcileFunction {

	/**
	 * Reconcile the object named by the request.
	 * @param request the namespace and name of the object
	 * @param cause why the key was queued
	 * @return what to do next
	 * @throws Exception any failure, retried through the rate limiter
	 */
	Result reconcile(Request request, Trigger cause) throws Exception;

	@Override
	default Result reconcile(Request request) throws Exception {
		return reconcile(request, Trigger.EVENT);
	}

}
