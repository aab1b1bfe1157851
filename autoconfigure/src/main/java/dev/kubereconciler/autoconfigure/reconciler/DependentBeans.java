package dev.kubereconciler.autoconfigure.reconciler;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;

import dev.kubereconciler.autoconfigure.reconciler.ReconcilerMethodProcessor.ReconcilerMethod;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.dependent.Dependent;

/**
 * Decides which {@link Dependent} beans each {@code @Reconciler} method gets, by their
 * primary type as a {@code Cleaner<T>} is found: a {@code Dependent<T, ?>} bean goes to
 * the one method that watches {@code T}. {@code @Reconciler(dependents)} only chooses
 * where several methods watch {@code T}: a method that names beans gets exactly those.
 *
 * <p>
 * A bean no method can take fails the startup, as a dependent silently never applied
 * would: no method watches its primary type, several do and none names it, the one that
 * does names others, or its declaration hides its primary type. A bean that a
 * {@link ControllerDefinition} bean was built with is that definition's. Methods of
 * controllers turned off by their {@code enabled} property still take their beans, so
 * that turning one off changes nothing else.
 */
final class DependentBeans {

	private final Function<Class<?>, List<String>> beanNames;

	private final Function<String, @Nullable Object> beans;

	private final Function<String, @Nullable ResolvableType> beanTypes;

	/**
	 * Create the resolver.
	 * @param beanNames lists the names of the beans of a type
	 * @param beans looks a bean up by name, returning {@code null} when there is none
	 * @param beanTypes returns a bean's declared type with its generics, or {@code null}
	 * when it is not known
	 */
	DependentBeans(Function<Class<?>, List<String>> beanNames, Function<String, @Nullable Object> beans,
			Function<String, @Nullable ResolvableType> beanTypes) {
		this.beanNames = beanNames;
		this.beans = beans;
		this.beanTypes = beanTypes;
	}

	/**
	 * Give each method its dependent beans.
	 * @param methods every {@code @Reconciler} method, of enabled controllers or not
	 * @param definitions the {@link ControllerDefinition} beans
	 * @return the names of the beans each method gets, and the beans none can take
	 */
	Claims claim(List<ReconcilerMethod> methods, List<ControllerDefinition> definitions) {
		Map<ReconcilerMethod, List<String>> claimed = new IdentityHashMap<>();
		Set<String> named = new HashSet<>();
		for (ReconcilerMethod method : methods) {
			claimed.put(method, new ArrayList<>(List.of(method.annotation().dependents())));
			named.addAll(List.of(method.annotation().dependents()));
		}
		List<String> unclaimed = new ArrayList<>();
		for (String name : this.beanNames.apply(Dependent.class)) {
			if (named.contains(name) || builtInto(name, definitions)) {
				continue;
			}
			// a raw Dependent resolves to the bound of its type variable
			Class<?> primary = (primaryType(name) != KubernetesObject.class) ? primaryType(name) : null;
			List<ReconcilerMethod> watching = (primary != null)
					? methods.stream().filter((method) -> primary.isAssignableFrom(method.watches())).toList()
					: List.of();
			if (watching.size() == 1 && watching.get(0).annotation().dependents().length == 0) {
				// every method got its list above
				Objects.requireNonNull(claimed.get(watching.get(0))).add(name);
			}
			else {
				unclaimed.add(unclaimed(name, primary, watching));
			}
		}
		return new Claims(claimed, unclaimed);
	}

	/**
	 * The primary type of a dependent bean. {@code Dependent} is a final class whose
	 * instances do not carry their type arguments: only the bean's declaration, such as
	 * an {@code @Bean} method's return type, says what it takes.
	 * @param name the bean name
	 * @return the primary type, or {@code null} when the declaration does not say
	 */
	@Nullable Class<?> primaryType(String name) {
		ResolvableType type = this.beanTypes.apply(name);
		return (type != null) ? type.as(Dependent.class).getGeneric(0).resolve() : null;
	}

	private boolean builtInto(String name, List<ControllerDefinition> definitions) {
		Object bean = this.beans.apply(name);
		return definitions.stream()
			.anyMatch((definition) -> definition.reconciler().dependents().all().stream().anyMatch((d) -> d == bean));
	}

	private static String unclaimed(String name, @Nullable Class<?> primary, List<ReconcilerMethod> watching) {
		if (primary == null) {
			return "bean '" + name + "' is declared as a Dependent without its primary type, and no "
					+ "@Reconciler(dependents) names it: declare it as a Dependent<Primary, Owned>, for example with "
					+ "an @Bean method returning Dependent<Widget, V1ConfigMap>";
		}
		String type = primary.getSimpleName();
		String bean = "bean '" + name + "' (a Dependent<" + type + ", ?>)";
		if (watching.isEmpty()) {
			return bean + " belongs to no controller, as no @Reconciler method watches " + type
					+ ": watch it with one, give the bean to a ControllerDefinition with dependent(...), or remove it";
		}
		List<String> controllers = watching.stream()
			.map((method) -> "'" + ControllerDefinitionResolver.nameOf(method) + "'")
			.toList();
		if (watching.size() == 1) {
			return bean + " is not among the dependents that controller " + controllers.get(0) + " names in "
					+ "@Reconciler(dependents) of " + watching.get(0).description() + ": add '" + name
					+ "' there, or leave dependents out to give the controller every Dependent<" + type + ", ?> bean";
		}
		return bean + " could go to any of the controllers " + String.join(", ", controllers) + ", which all watch "
				+ type + ": name it in the @Reconciler(dependents) of the one that owns its objects";
	}

	/**
	 * The dependent beans of each method, and the beans no method can take.
	 */
	static final class Claims {

		private final Map<ReconcilerMethod, List<String>> claimed;

		private final List<String> unclaimed;

		private Claims(Map<ReconcilerMethod, List<String>> claimed, List<String> unclaimed) {
			this.claimed = claimed;
			this.unclaimed = unclaimed;
		}

		/**
		 * The names of the dependent beans of a method.
		 * @param method the method
		 * @return the bean names, those it names or those of its watched type
		 */
		List<String> of(ReconcilerMethod method) {
			return this.claimed.getOrDefault(method, List.of());
		}

		/**
		 * Fail for the beans no method can take, once the controllers were checked.
		 * @throws IllegalStateException naming every such bean, the controllers and the
		 * fix
		 */
		void requireAllClaimed() {
			if (!this.unclaimed.isEmpty()) {
				throw new IllegalStateException("Every Dependent bean must go to one controller, as its objects "
						+ "would never be applied otherwise: " + String.join("; ", this.unclaimed));
			}
		}

	}

}
