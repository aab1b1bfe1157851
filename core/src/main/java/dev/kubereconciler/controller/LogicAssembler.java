package dev.kubereconciler.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ReconcileLogic.Cleanup;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.reconcile.Cleaner;

/**
 * What a {@link ControllerDefinitionBuilder} collects beside the reconcile function: the
 * finalizer and the dependents, joined to the function into one checked
 * {@link ReconcileLogic} when the definition ends.
 *
 * @param <T> the watched type
 */
final class LogicAssembler<T extends KubernetesObject> {

	private final Class<T> watches;

	private @Nullable Cleanup<T> cleanup;

	private final List<Dependent<T, ?>> dependents = new ArrayList<>();

	private boolean readyCondition;

	LogicAssembler(Class<T> watches) {
		this.watches = watches;
	}

	void finalizer(String finalizer, Cleaner<T> cleaner) {
		this.cleanup = new Cleanup<>(finalizer, cleaner);
	}

	void dependent(Dependent<T, ?> dependent) {
		this.dependents.add(Objects.requireNonNull(dependent, "dependent must not be null"));
	}

	void readyCondition(boolean readyCondition) {
		this.readyCondition = readyCondition;
	}

	/**
	 * Take the logic of another definition, such as one a bean declares.
	 * @param logic the logic
	 * @param controller the controller's name, for the message
	 * @return the logic, typed for this builder
	 * @throws IllegalArgumentException if it takes a type that is not the watched one's
	 */
	// the logic's functions take a supertype of T at least, so they take a T
	@SuppressWarnings("unchecked")
	ReconcileLogic<T> typed(ReconcileLogic<?> logic, String controller) {
		if (!logic.type().isAssignableFrom(this.watches)) {
			throw new IllegalArgumentException("Controller '" + controller + "' watches " + this.watches.getName()
					+ " but its reconciler takes " + logic.type().getName());
		}
		return (ReconcileLogic<T>) logic;
	}

	/**
	 * Join the finalizer and the dependents to the logic, the finalizer replacing the
	 * logic's own, the dependents added to its own, and check the model against the
	 * result.
	 * @param logic the reconcile logic
	 * @return the whole logic
	 * @throws IllegalArgumentException if the dependents' names or order are wrong, or
	 * the model lacks what the logic needs
	 */
	ReconcileLogic<T> assemble(ReconcileLogic<T> logic) {
		ReconcileLogic<T> assembled = logic;
		if (this.cleanup != null || !this.dependents.isEmpty() || this.readyCondition) {
			Dependents<T> dependents = logic.dependents();
			if (!this.dependents.isEmpty() || this.readyCondition) {
				List<Dependent<T, ?>> all = new ArrayList<>(dependents.all());
				all.addAll(this.dependents);
				dependents = Dependents.of(all).withReadyCondition(this.readyCondition || dependents.readyCondition());
			}
			assembled = logic.with((this.cleanup != null) ? this.cleanup : logic.cleanup(), dependents);
		}
		ModelReflection.check(assembled);
		return assembled;
	}

}
