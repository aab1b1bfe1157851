package dev.kubereconciler.reconcile;

import org.jspecify.annotations.Nullable;

/**
 * Where a controller's dependents stood after this reconcile applied them: all ready, or
 * the first one that is not, and why.
 *
 * @param ready whether every wanted dependent is applied and ready
 * @param waitingFor the name of the first dependent that is not, or {@code null}
 * @param message a sentence for people, as the primary's {@code Ready} condition says it
 */
public record DependentsStatus(boolean ready, @Nullable String waitingFor, String message) {

	/** The status of a controller without dependents. */
	public static final DependentsStatus NONE = new DependentsStatus(true, null, "No dependents");

}
