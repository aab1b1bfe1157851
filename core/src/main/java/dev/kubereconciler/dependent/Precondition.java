package dev.kubereconciler.dependent;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.reconcile.ReconcileContext;

/**
 * Whether a dependent is wanted at all for a primary object, JOSDK's reconcile
 * precondition.
 *
 * @param <P> the primary type
 */
@FunctionalInterface
public interface Precondition<P extends KubernetesObject> {

	/**
	 * Return whether the dependent should exist.
	 * @param primary a private copy of the primary object
	 * @param context the reconcile context
	 * @return {@code true} to apply the dependent
	 * @throws Exception any failure, which fails the reconcile and is retried
	 */
	boolean test(P primary, ReconcileContext<P> context) throws Exception;

}
