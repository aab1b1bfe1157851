package dev.kubereconciler.autoconfigure.reconciler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.autoconfigure.ControllerProperties;
import dev.kubereconciler.autoconfigure.DependentProperties;
import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.PropertyDurations;
import dev.kubereconciler.autoconfigure.reconciler.ReconcilerMethodProcessor.ReconcilerMethod;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerDefinitionBuilder;
import dev.kubereconciler.controller.ReconcileLogic;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.reconcile.Reconciler;

/**
 * Gives a controller its {@link Dependent} beans, as {@link DependentBeans} chose them,
 * and applies {@code kube-reconciler.controllers.<name>.dependents.<dependent>.*} to the
 * dependents of any controller, annotated or a {@link ControllerDefinition} bean.
 */
final class DependentSettings {

	private static final String PREFIX = "kube-reconciler.controllers.";

	private final Function<String, @Nullable Object> beans;

	private final DependentBeans dependentBeans;

	/**
	 * Create the resolver.
	 * @param beans looks a bean up by name, returning {@code null} when there is none
	 * @param dependentBeans tells a dependent bean's primary type
	 */
	DependentSettings(Function<String, @Nullable Object> beans, DependentBeans dependentBeans) {
		this.beans = beans;
		this.dependentBeans = dependentBeans;
	}

	/**
	 * End an annotated controller's definition with its method, adding the dependents and
	 * the {@code Ready} condition its annotation declares.
	 * @param builder the definition so far
	 * @param controller the controller name
	 * @param method the {@code @Reconciler} method
	 * @param dependents the names of its dependent beans, those it names or those of its
	 * watched type
	 * @return the definition
	 */
	ControllerDefinition reconcile(ControllerDefinitionBuilder<?> builder, String controller, ReconcilerMethod method,
			List<String> dependents) {
		Reconciler annotation = method.annotation();
		for (String name : dependents) {
			Dependent<?, ?> dependent = bean(controller, method.watches(), name, method.description());
			addDependent(builder, dependent);
		}
		builder.readyCondition(annotation.readyCondition());
		try {
			return builder.reconcile(method.function());
		}
		catch (IllegalArgumentException ex) {
			// the dependents are checked together only here: unique names, dependsOn
			// without a cycle, and a status with conditions for the Ready condition
			throw new IllegalStateException("Controller '" + controller + "' of @Reconciler method "
					+ method.description() + ": " + ex.getMessage(), ex);
		}
	}

	// bean() checked the dependent's primary type against the watched type
	@SuppressWarnings("unchecked")
	private static <T extends KubernetesObject> void addDependent(ControllerDefinitionBuilder<T> builder,
			Dependent<?, ?> dependent) {
		builder.dependent((Dependent<T, ?>) dependent);
	}

	private Dependent<?, ?> bean(String controller, Class<? extends KubernetesObject> watches, String name,
			String method) {
		String origin = "@Reconciler(dependents) of " + method;
		String wanted = "Dependent<" + watches.getSimpleName() + ", ?>";
		Object bean = this.beans.apply(name);
		if (!(bean instanceof Dependent<?, ?> dependent)) {
			String problem = (bean == null) ? "controller '" + controller + "' names no bean '" + name + "'"
					: "bean '" + name + "' of controller '" + controller + "' is a " + bean.getClass().getName()
							+ ", not a Dependent";
			throw new InvalidPropertyException(origin, name, problem,
					"Define a " + wanted + " bean named '" + name + "' or remove it from @Reconciler(dependents).");
		}
		Class<?> primary = this.dependentBeans.primaryType(name);
		if (primary != null && !primary.isAssignableFrom(watches)) {
			throw new InvalidPropertyException(origin, name,
					"bean '" + name + "' is a Dependent<" + primary.getSimpleName() + ", ?>, which cannot be applied "
							+ "for the " + watches.getSimpleName() + " objects of controller '" + controller + "'",
					"Declare bean '" + name + "' as a " + wanted + " or remove it from @Reconciler(dependents).");
		}
		return dependent;
	}

	/**
	 * Apply the properties of a controller's dependents to its definition.
	 * @param definition the definition
	 * @param overrides the controller's properties
	 * @return the definition, with its dependents turned on or off and their ready
	 * timeouts changed
	 * @throws InvalidPropertyException for a dependent the controller does not have, or a
	 * negative ready timeout
	 */
	static ControllerDefinition apply(ControllerDefinition definition, ControllerProperties overrides) {
		if (overrides.getDependents().isEmpty()) {
			return definition;
		}
		return definition.withReconciler(apply(definition, definition.reconciler(), overrides));
	}

	private static <T extends KubernetesObject> ReconcileLogic<T> apply(ControllerDefinition definition,
			ReconcileLogic<T> reconciler, ControllerProperties overrides) {
		String prefix = PREFIX + definition.name() + ".dependents.";
		Dependents<T> dependents = reconciler.dependents();
		Map<String, Dependent<?, ?>> declared = new LinkedHashMap<>();
		dependents.all().forEach((dependent) -> declared.put(dependent.name(), dependent));
		for (Map.Entry<String, DependentProperties> entry : overrides.getDependents().entrySet()) {
			String name = entry.getKey();
			Dependent<?, ?> dependent = declared.get(name);
			if (dependent == null) {
				throw new InvalidPropertyException(prefix + name, name,
						"controller '" + definition.name() + "' has no dependent named '" + name + "'",
						"Use the name of one of its dependents ("
								+ (declared.isEmpty() ? "it has none" : String.join(", ", declared.keySet()))
								+ ") or remove the entry.");
			}
			String code = "dependent '" + name + "' of controller '" + definition.name() + "'";
			dependents = dependents.override(name,
					Setting.from(prefix + name + ".enabled", entry.getValue().getEnabled())
						.orElse(code, dependent.isEnabled())
						.value(),
					Setting.from(prefix + name + ".ready-timeout", entry.getValue().getReadyTimeout())
						.orElse(code, dependent.readyTimeout())
						.to(PropertyDurations::requireNotNegative));
		}
		return reconciler.with(reconciler.cleanup(), dependents);
	}

}
