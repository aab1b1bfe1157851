package dev.kubereconciler.dependent;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.reconcile.ReconcileContext;

/**
 * The desired state of one dependent object, computed from the primary object.
 *
 * @param <P> the primary type
 * @param <R> the dependent type
 */
@FunctionalInterface
public interface DesiredObject<P extends KubernetesObject, R extends KubernetesObject> {

	/**
	 * Return the object as this controller wants it: only the fields it manages, with a
	 * name; the namespace defaults to the primary's for a namespaced type. Labels, the
	 * owner reference and the apply's bookkeeping are added by the framework.
	 * @param primary a private copy of the primary object
	 * @param context the reconcile context, to read other cached objects
	 * @return the desired object
	 * @throws Exception any failure, which fails the reconcile and is retried
	 */
	R desired(P primary, ReconcileContext<P> context) throws Exception;

}
