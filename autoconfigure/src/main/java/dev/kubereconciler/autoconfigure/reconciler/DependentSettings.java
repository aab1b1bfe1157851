package dev.kubereconciler.autoconfigure.reconciler;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;

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
 * Gives a controller the {@link Dependent} beans that {@code @Reconciler(dependents)}
 * names, and applies {@code kube-reconciler.controllers.<name>.dependents.<dependent>.*}
 * to the dependents of any controller, annotated or a {@link ControllerDefinition} bean.
 */
final class DependentSettings {

	private static final String PREFIX = "kube-reconciler.controllers.";

	private final Function<String, @Nullable Object> beans;

	private final Function<String, @Nullable ResolvableType> beanTypes;

	/**
	 * Create the resolver.
	 * @param beans looks a bean up by name, returning {@code null} when there is none
	 * @param beanTypes returns a bean's declared type with its generics, or {@code null}
	 * when it is not known
	 */
	DependentSettings(Function<String, @Nullable Object> beans, Function<String, @Nullable ResolvableType> beanTypes) {
		this.beans = beans;
		this.beanTypes = beanTypes;
	}

	/**
	 * End an annotated controller's definition with its method, adding the dependents and
	 * the {@code Ready} condition its annotation declares.
	 * @param builder the definition so far
	 * @param controller the controller name
	 * @param method the {@code @Reconciler} method
	 * @return the definition
	 */
	ControllerDefinition reconcile(ControllerDefinitionBuilder<?> builder, String controller, ReconcilerMethod method) {
		Reconciler annotation = method.annotation();
		for (String name : annotation.dependents()) {
			Dependent<?, ?> dependent = bean(controller, annotation.watches(), name, method.description());
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
		Class<?> primary = primaryType(name);
		if (primary != null && !primary.isAssignableFrom(watches)) {
			throw new InvalidPropertyException(origin, name,
					"bean '" + name + "' is a Dependent<" + primary.getSimpleName() + ", ?>, which cannot be applied "
							+ "for the " + watches.getSimpleName() + " objects of controller '" + controller + "'",
					"Declare bean '" + name + "' as a " + wanted + " or remove it from @Reconciler(dependents).");
		}
		return dependent;
	}

	// Dependent is a final class whose instances do not carry their type arguments: only
	// the bean's declaration, such as an @Bean method's return type, says what it takes
	private @Nullable Class<?> primaryType(String name) {
		ResolvableType type = this.beanTypes.apply(name);
		return (type != null) ? type.as(Dependent.class).getGeneric(0).resolve() : null;
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
		List<String> names = dependents.all().stream().map(Dependent::name).toList();
		for (Map.Entry<String, DependentProperties> entry : overrides.getDependents().entrySet()) {
			String name = entry.getKey();
			if (!names.contains(name)) {
				throw new InvalidPropertyException(prefix + name, name,
						"controller '" + definition.name() + "' has no dependent named '" + name + "'",
						"Use the name of one of its dependents ("
								+ (names.isEmpty() ? "it has none" : String.join(", ", names))
								+ ") or remove the entry.");
			}
			Duration readyTimeout = entry.getValue().getReadyTimeout();
			if (readyTimeout != null) {
				PropertyDurations.requireNotNegative(prefix + name + ".ready-timeout", readyTimeout);
			}
			dependents = dependents.override(name, entry.getValue().getEnabled(), readyTimeout);
		}
		return reconciler.with(reconciler.cleanup(), dependents);
	}

}
