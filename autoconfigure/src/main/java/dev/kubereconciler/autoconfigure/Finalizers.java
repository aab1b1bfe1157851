package dev.kubereconciler.autoconfigure;

import java.util.Map;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.autoconfigure.ReconcilerMethodProcessor.CleanupMethod;
import dev.kubereconciler.autoconfigure.ReconcilerMethodProcessor.ReconcilerMethod;
import dev.kubereconciler.controller.ContextReconciler;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ReconcileFunction;

/**
 * Gives a controller the finalizer that its annotation, definition or properties declare,
 * with its cleanup: a {@code @Cleanup} method, a bean implementing {@link Cleaner}, or
 * the cleaner of a {@link ContextReconciler}.
 */
final class Finalizers {

	private static final String PREFIX = "kube-reconciler.controllers.";

	private Finalizers() {
	}

	static ControllerDefinition apply(ControllerDefinition definition, ReconcilerMethod method, CleanupMethod cleanup,
			ControllerProperties overrides) {
		String name = definition.name();
		ReconcileFunction reconciler = definition.reconciler();
		ContextReconciler<?> contextual = (reconciler instanceof ContextReconciler<?> context) ? context : null;
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
			finalizer = (contextual != null) ? contextual.finalizer() : null;
			origin = "ControllerDefinition bean '" + name + "'";
		}
		if (finalizer == null || finalizer.isEmpty()) {
			if (cleanup != null) {
				throw new IllegalStateException("@Cleanup(\"" + name + "\") method " + cleanup.description()
						+ " has no finalizer to serve: set @Reconciler(finalizer = \"example.com/cleanup\") or "
						+ PREFIX + name + ".finalizer");
			}
			return definition;
		}
		if (!finalizer.contains("/")) {
			throw new InvalidPropertyException(origin, finalizer, "a finalizer must be qualified with a domain",
					"Use a name such as 'example.com/cleanup'.");
		}
		Cleaner<?> cleaner;
		if (cleanup != null) {
			ReconcilerMethodProcessor.checkCleanup(cleanup, definition.watches());
			cleaner = cleanup.cleaner();
		}
		else if (method != null && method.bean() instanceof Cleaner<?> bean) {
			cleaner = bean;
		}
		else if (contextual != null && contextual.cleaner() != null) {
			cleaner = contextual.cleaner();
		}
		else {
			throw new IllegalStateException("Controller '" + name + "' has finalizer '" + finalizer + "' (from "
					+ origin + ") but no cleanup to run before removing it: add a @Cleanup(\"" + name
					+ "\") method, or implement Cleaner on the bean that declares the @Reconciler method");
		}
		return definition.withReconciler(withFinalizer(definition.watches(), reconciler, finalizer, cleaner));
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static ReconcileFunction withFinalizer(Class<? extends KubernetesObject> watches,
			ReconcileFunction reconciler, String finalizer, Cleaner<?> cleaner) {
		ContextReconciler contextual = (reconciler instanceof ContextReconciler<?> context) ? context
				: ContextReconciler.ofRequest((Class) watches, (request, context) -> reconciler.reconcile(request));
		return contextual.withFinalizer(finalizer, (Cleaner) cleaner);
	}

	static void checkCleanupsHaveControllers(Map<String, CleanupMethod> cleanups, Set<String> controllers) {
		cleanups.forEach((name, cleanup) -> {
			if (!controllers.contains(name)) {
				throw new IllegalStateException("@Cleanup(\"" + name + "\") method " + cleanup.description()
						+ " names no controller; controllers: "
						+ (controllers.isEmpty() ? "none" : String.join(", ", controllers)));
			}
		});
	}

}
