package dev.kubereconciler.internal.context;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.reconcile.DependentsStatus;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Result;

/**
 * The dependents of one controller, as its {@link BoundReconciler} runs them around the
 * reconcile logic. {@code internal.dependent} implements it and the manager hands its
 * {@link Factory} to the {@link ReconcilerBinder}: the dependents' machinery writes
 * through this package, which therefore cannot name it.
 *
 * @param <T> the primary type
 */
public interface DependentsStep<T extends KubernetesObject> {

	/**
	 * Apply the dependents of a primary, then run the reconcile logic, which sees where
	 * they stand.
	 * @param primary the cached primary, which is not changed
	 * @param context the reconcile context
	 * @param logic the reconcile logic
	 * @return what to do next: the logic's result, or a requeue while a dependent is not
	 * ready
	 * @throws Exception if a dependent or the logic failed
	 */
	Result reconcile(T primary, ReconcileContext<T> context, Logic logic) throws Exception;

	/**
	 * Delete the objects of a primary being deleted that no owner reference reaches,
	 * before its finalizer goes.
	 * @param primary the primary
	 * @throws Exception if a delete failed
	 */
	void cleanUp(T primary) throws Exception;

	/**
	 * Forget what was remembered of a primary object that is gone.
	 * @param primaryKey its {@code namespace/name} key
	 */
	void forget(String primaryKey);

	/**
	 * The reconcile logic, run once the dependents were applied.
	 */
	@FunctionalInterface
	interface Logic {

		/**
		 * Run the logic.
		 * @param status where the dependents stand
		 * @return the logic's result
		 * @throws Exception if the logic failed
		 */
		Result run(DependentsStatus status) throws Exception;

	}

	/**
	 * Makes the dependents' step of a controller.
	 */
	@FunctionalInterface
	interface Factory {

		/**
		 * Make the step of a controller's dependents.
		 * @param <T> the primary type
		 * @param dependents the declared dependents, not empty
		 * @param primaryType the primary type
		 * @param hasFinalizer whether the controller has a finalizer, whose cleanup may
		 * delete what no owner reference reaches
		 * @param controller the controller's name, its field manager
		 * @param support what the reconcile side shares
		 * @param writer the controller's writer
		 * @return the step
		 */
		<T extends KubernetesObject> DependentsStep<T> create(Dependents<T> dependents, Class<T> primaryType,
				boolean hasFinalizer, String controller, ReconcileSupport support, KubernetesWriter writer);

	}

}
