package dev.kubereconciler.autoconfigure.reconciler;

import java.util.regex.Pattern;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;

import dev.kubereconciler.autoconfigure.ControllerProperties;
import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.reconciler.ReconcilerMethodProcessor.ReconcilerMethod;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ReconcileLogic;
import dev.kubereconciler.controller.ReconcileLogic.Cleanup;
import dev.kubereconciler.reconcile.Cleaner;

/**
 * Gives a controller the finalizer that its annotation, definition or properties declare,
 * or that its bean implies by implementing {@link Cleaner}, with its cleanup: the
 * {@link Cleaner} of the watched type that the bean declaring the {@code @Reconciler}
 * method implements, or the cleaner a {@link ControllerDefinition} bean was built with.
 * The cleanup is linked by type, never by a controller name.
 */
final class Finalizers {

	private static final String PREFIX = "kube-reconciler.controllers.";

	private static final String DEFAULT_DOMAIN = "kubereconciler.dev";

	// the name part of a qualified name, as the API server validates finalizers
	private static final Pattern QUALIFIED_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

	private static final int QUALIFIED_NAME_MAX_LENGTH = 63;

	private Finalizers() {
	}

	static ControllerDefinition apply(ControllerDefinition definition, @Nullable ReconcilerMethod method,
			ControllerProperties overrides) {
		String name = definition.name();
		ReconcileLogic<?> reconciler = definition.reconciler();
		Setting<String> chosen = finalizer(definition, method, overrides);
		if (chosen == null || chosen.value().isEmpty()) {
			return definition;
		}
		String finalizer = chosen.value();
		String origin = chosen.origin();
		try {
			Cleanup.checkFinalizer(finalizer);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidPropertyException(origin, finalizer, "a finalizer must be qualified with a domain",
					"Use a name such as 'example.com/cleanup'.");
		}
		Cleaner<?> cleaner;
		if (method != null && method.bean() instanceof Cleaner<?> bean) {
			checkCleanerType(bean, definition, method);
			cleaner = bean;
		}
		else if (reconciler.cleaner() != null) {
			cleaner = reconciler.cleaner();
		}
		else {
			throw new IllegalStateException("Controller '" + name + "' has finalizer '" + finalizer + "' (from "
					+ origin + ") but no cleanup to run before removing it: implement Cleaner<"
					+ definition.watches().getSimpleName() + "> on the bean that declares the @Reconciler method");
		}
		return definition.withReconciler(withFinalizer(reconciler, finalizer, cleaner));
	}

	/**
	 * The finalizer of {@code controllers.<name>.finalizer}, else of the annotation, else
	 * the one the bean's {@link Cleaner} implies; for a definition bean, its own.
	 */
	private static @Nullable Setting<String> finalizer(ControllerDefinition definition,
			@Nullable ReconcilerMethod method, ControllerProperties overrides) {
		Setting.Choice<String> choice = Setting.from(PREFIX + definition.name() + ".finalizer",
				blankToNull(overrides.getFinalizer()));
		if (method == null) {
			return choice
				.or("ControllerDefinition bean '" + definition.name() + "'", definition.reconciler().finalizer())
				.orNone();
		}
		String of = " of " + method.description();
		return choice.or("@Reconciler(finalizer)" + of, method.annotation().finalizer(), (f) -> !f.isEmpty())
			// the Cleaner is the declaration, as in Java Operator SDK: a cleanup that no
			// finalizer triggers would never run
			.orIf(method.bean() instanceof Cleaner<?>, "the Cleaner implemented by the bean" + of,
					(origin) -> implied(definition, method))
			.orNone();
	}

	private static @Nullable String blankToNull(@Nullable String finalizer) {
		return (finalizer != null && !finalizer.isBlank()) ? finalizer.strip() : null;
	}

	/**
	 * The finalizer of a controller whose bean implements {@link Cleaner} but names none:
	 * {@code <group of the watched type>/<controller name>-finalizer}, with
	 * {@code kubereconciler.dev} for the core group, so that two controllers of one type
	 * hold their objects apart.
	 */
	static String implied(ControllerDefinition definition, ReconcilerMethod method) {
		String group = ResourceType.of(definition.watches()).group();
		String name = definition.name() + "-finalizer";
		String finalizer = (group.isEmpty() ? DEFAULT_DOMAIN : group) + "/" + name;
		if (name.length() > QUALIFIED_NAME_MAX_LENGTH || !QUALIFIED_NAME.matcher(name).matches()) {
			throw new IllegalStateException("The bean of " + method.description() + " implements Cleaner<"
					+ definition.watches().getSimpleName() + "> and names no finalizer, and the name of controller '"
					+ definition.name() + "' cannot form the implied finalizer '" + finalizer
					+ "' (a finalizer's name after the '/' has at most 63 letters, digits, '-', '_' and '.'); "
					+ "name one with @Reconciler(finalizer = \"example.com/cleanup\") or " + PREFIX + definition.name()
					+ ".finalizer");
		}
		return finalizer;
	}

	private static void checkCleanerType(Cleaner<?> cleaner, ControllerDefinition definition, ReconcilerMethod method) {
		Class<?> cleaned = ResolvableType.forClass(cleaner.getClass()).as(Cleaner.class).resolveGeneric(0);
		if (cleaned != null && cleaned != KubernetesObject.class && !cleaned.isAssignableFrom(definition.watches())) {
			throw new IllegalStateException("The bean of " + method.description() + " implements Cleaner<"
					+ cleaned.getSimpleName() + ">, which cannot clean up the " + definition.watches().getSimpleName()
					+ " objects of controller '" + definition.name() + "'; implement Cleaner<"
					+ definition.watches().getSimpleName() + "> instead");
		}
	}

	// the cleaner's type was checked against the watched type above
	@SuppressWarnings("unchecked")
	private static <T extends KubernetesObject> ReconcileLogic<T> withFinalizer(ReconcileLogic<T> reconciler,
			String finalizer, Cleaner<?> cleaner) {
		return reconciler.with(new Cleanup<>(finalizer, (Cleaner<T>) cleaner), reconciler.dependents());
	}

}
