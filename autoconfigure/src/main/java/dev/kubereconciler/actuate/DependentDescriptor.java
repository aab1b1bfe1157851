package dev.kubereconciler.actuate;

import java.util.List;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.dependent.Dependent;

/**
 * One dependent of a controller, as the {@code controllers} endpoint shows it: how it is
 * declared and configured, and what its applies and prunes did.
 *
 * @param name the dependent's name
 * @param type the type of its objects, such as {@code apps/v1/Deployment}
 * @param enabled whether it is applied; a dependent turned off has its objects deleted
 * @param dependsOn the dependents that must be ready before it is applied
 * @param readyTimeout how long it may stay not ready before the primary says so
 * (ISO-8601), {@code PT0S} for no limit
 * @param applied applies that changed the server's object: created it, or updated it
 * @param unchanged applies that found the object as wanted and sent no write, or whose
 * write changed nothing
 * @param driftCorrections applies that put back a field someone else had changed; also in
 * {@code applied}
 * @param prunes objects deleted because the dependent no longer wanted them
 */
public record DependentDescriptor(String name, String type, boolean enabled, List<String> dependsOn,
		String readyTimeout, long applied, long unchanged, long driftCorrections, long prunes) {

	/**
	 * Describe the dependents a controller declares, in declaration order.
	 * @param controller the controller
	 * @param activity the recorded activity
	 * @return the descriptors, empty for a controller without dependents
	 */
	static List<DependentDescriptor> of(Controller controller, ControllerActivity activity) {
		return controller.definition()
			.reconciler()
			.dependents()
			.all()
			.stream()
			.map((dependent) -> of(dependent, activity.dependent(controller.name(), dependent.name())))
			.toList();
	}

	private static DependentDescriptor of(Dependent<?, ?> dependent, DependentCounts counts) {
		return new DependentDescriptor(dependent.name(), ResourceType.of(dependent.type()).displayName(),
				dependent.isEnabled(), List.copyOf(dependent.dependsOn()), dependent.readyTimeout().toString(),
				counts.applied(), counts.unchanged(), counts.driftCorrections(), counts.prunes());
	}

}
