package dev.kubereconciler.autoconfigure.reconciler;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;

import dev.kubereconciler.autoconfigure.ControllerProperties;
import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.reconciler.ReconcilerMethodProcessor.ReconcilerMethod;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ReconcileSpec;
import dev.kubereconciler.reconcile.Cleaner;

/**
 * Gives a controller the finalizer that its annotation, definition or properties declare,
 * with its cleanup: the {@link Cleaner} of the watched type that the bean declaring the
 * {@code @Reconciler} method implements, or the cleaner a {@link ControllerDefinition}
 * bean was built with. The cleanup is linked by type, never by a controller name.
 */
final class Finalizers {

	private static final String PREFIX = "kube-reconciler.controllers.";

	private Finalizers() {
	}

	static ControllerDefinition apply(ControllerDefinition definition, @Nullable ReconcilerMethod method,
			ControllerProperties overrides) {
		String name = definition.name();
		ReconcileSpec<?> reconciler = definition.reconciler();
		String finalizer;
		String origin;
		if (overrides.getFinalizer() != null && !overrides.getFinalizer().isBlank()) {
			finalizer = overrides.getFinalizer().strip();
			origin = PREFIX + name + ".finalizer";
		}
		else if (method != null) {
			finalizer = method.annotation().finalizer();
			origin = "@Reconciler(finalizer) of " + method.description();
		}
		else {
			finalizer = reconciler.finalizer();
			origin = "ControllerDefinition bean '" + name + "'";
		}
		if (finalizer == null || finalizer.isEmpty()) {
			return definition;
		}
		try {
			ReconcileSpec.checkFinalizer(finalizer);
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

	private static void checkCleanerType(Cleaner<?> cleaner, ControllerDefinition definition, ReconcilerMethod method) {
		Class<?> cleaned = ResolvableType.forClass(cleaner.getClass()).as(Cleaner.class).resolveGeneric(0);
		if (cleaned != null && cleaned != KubernetesObject.class && !cleaned.isAssignableFrom(definition.watches())) {
			throw new IllegalStateException("The bean of " + method.description() + " implements Cleaner<"
					+ cleaned.getSimpleName() + ">, which cannot clean up the " + definition.watches().getSimpleName()
					+ " objects of controller '" + definition.name() + "'; implement Cleaner<"
					+ definition.watches().getSimpleName() + "> instead");
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static ReconcileSpec<?> withFinalizer(ReconcileSpec<?> reconciler, String finalizer, Cleaner<?> cleaner) {
		return ((ReconcileSpec) reconciler).withFinalizer(finalizer, (Cleaner) cleaner);
	}

}
