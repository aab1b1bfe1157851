package dev.kubereconciler.reconcile;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Decides whether an update of a primary object reconciles it: a custom update filter, as
 * controller-runtime's {@code predicate.Funcs.UpdateFunc}.
 *
 * <p>
 * Filters see updates only: creates and deletes always reconcile, as with the built-in
 * {@link UpdateFilter filters}. An update also passes when the filter throws, because a
 * lost event is worse than a spare reconcile.
 */
@FunctionalInterface
public interface UpdatePredicate {

	/**
	 * Return whether an update reconciles the object.
	 * @param oldObject the object before the update, as the informer last saw it
	 * @param newObject the object after the update
	 * @return {@code true} to reconcile, {@code false} to drop the event
	 */
	boolean test(KubernetesObject oldObject, KubernetesObject newObject);

}
