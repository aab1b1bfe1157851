package dev.kubereconciler.dependent;

import java.util.Collection;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.reconcile.ReconcileContext;

/**
 * The desired state of a varying number of dependent objects of one kind, a bulk
 * dependent, computed from the primary object.
 *
 * @param <P> the primary type
 * @param <R> the dependent type
 */
@FunctionalInterface
public interface DesiredObjects<P extends KubernetesObject, R extends KubernetesObject> {

	/**
	 * Return the objects as this controller wants them, each with a distinct name. An
	 * object this dependent applied before and no longer returns is deleted.
	 * @param primary a private copy of the primary object
	 * @param context the reconcile context, to read other cached objects
	 * @return the desired objects, possibly none
	 * @throws Exception any failure, which fails the reconcile and is retried
	 */
	Collection<? extends R> desired(P primary, ReconcileContext<P> context) throws Exception;

}
