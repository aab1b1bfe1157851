package dev.kubereconciler.controller;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ObjectReconciler;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestReconciler;
import dev.kubereconciler.reconcile.Result;

/**
 * A reconciler that takes the object or a {@link ReconcileContext}, optionally with a
 * finalizer and its cleanup, for a {@link ControllerDefinition}:
 *
 * <pre class="code">
 * ControllerDefinition.builder("widget", Widget.class)
 *     .reconciler(ContextReconciler.of(Widget.class, (widget, context) -&gt; ...)
 *         .withFinalizer("example.com/cleanup", (widget, context) -&gt; ...))
 *     .build();
 * </pre>
 *
 * <p>
 * A {@link ControllerManager} binds it to its caches when it builds the controller; it
 * cannot run elsewhere.
 *
 * @param <T> the watched type
 */
public final class ContextReconciler<T extends KubernetesObject> implements ReconcileFunction {

	private final Class<T> type;

	private final @Nullable ObjectReconciler<T> objectReconciler;

	private final @Nullable RequestReconciler<T> requestReconciler;

	private final @Nullable String finalizer;

	private final @Nullable Cleaner<T> cleaner;

	private ContextReconciler(Class<T> type, @Nullable ObjectReconciler<T> objectReconciler,
			@Nullable RequestReconciler<T> requestReconciler, @Nullable String finalizer,
			@Nullable Cleaner<T> cleaner) {
		this.type = Objects.requireNonNull(type, "type must not be null");
		this.objectReconciler = objectReconciler;
		this.requestReconciler = requestReconciler;
		this.finalizer = finalizer;
		this.cleaner = cleaner;
	}

	/**
	 * Reconcile a private copy of each cached object; not called once the object is gone.
	 * @param <T> the watched type
	 * @param type the watched model class
	 * @param reconciler the reconcile logic
	 * @return the reconciler
	 */
	public static <T extends KubernetesObject> ContextReconciler<T> of(Class<T> type, ObjectReconciler<T> reconciler) {
		return new ContextReconciler<>(type, Objects.requireNonNull(reconciler, "reconciler must not be null"), null,
				null, null);
	}

	/**
	 * Reconcile each request with a context, also when the object is gone.
	 * @param <T> the watched type
	 * @param type the watched model class
	 * @param reconciler the reconcile logic
	 * @return the reconciler
	 */
	public static <T extends KubernetesObject> ContextReconciler<T> ofRequest(Class<T> type,
			RequestReconciler<T> reconciler) {
		return new ContextReconciler<>(type, null, Objects.requireNonNull(reconciler, "reconciler must not be null"),
				null, null);
	}

	/**
	 * Return a copy that adds a finalizer to every object before its first reconcile and
	 * runs the cleaner once the object's deletion is requested, removing the finalizer
	 * when the cleaner returns {@link Result#done()}.
	 * @param finalizer the finalizer, such as {@code example.com/cleanup}
	 * @param cleaner the cleanup
	 * @return the copy
	 */
	public ContextReconciler<T> withFinalizer(String finalizer, Cleaner<T> cleaner) {
		if (finalizer == null || finalizer.isBlank()) {
			throw new IllegalArgumentException("A finalizer name must not be empty");
		}
		if (!finalizer.contains("/")) {
			throw new IllegalArgumentException("Finalizer '" + finalizer
					+ "' must be qualified with a domain, such as example.com/cleanup, as the API server requires");
		}
		return new ContextReconciler<>(this.type, this.objectReconciler, this.requestReconciler, finalizer,
				Objects.requireNonNull(cleaner, "cleaner must not be null"));
	}

	/**
	 * Return the context reconciler a controller runs, if it runs one, for those that
	 * derive what a controller does from it, such as its RBAC rules.
	 * @param reconciler a definition's reconcile function
	 * @return the context reconciler, or {@code null} for a plain {@code Request}
	 * function
	 */
	public static @Nullable ContextReconciler<?> of(ReconcileFunction reconciler) {
		return (reconciler instanceof ContextReconciler<?> context) ? context : null;
	}

	public Class<T> type() {
		return this.type;
	}

	/**
	 * Return the finalizer.
	 * @return the finalizer, or {@code null} for none
	 */
	public @Nullable String finalizer() {
		return this.finalizer;
	}

	/**
	 * Return the cleanup of the finalizer.
	 * @return the cleaner, or {@code null} for none
	 */
	public @Nullable Cleaner<T> cleaner() {
		return this.cleaner;
	}

	/**
	 * Return whether the reconcile logic takes the object, and so is skipped once it is
	 * gone.
	 * @return whether it takes the object
	 */
	public boolean takesObject() {
		return this.objectReconciler != null;
	}

	public Result invoke(Request request, @Nullable T object, ReconcileContext<T> context) throws Exception {
		return (this.objectReconciler != null)
				? this.objectReconciler.reconcile(Objects.requireNonNull(object), context)
				: Objects.requireNonNull(this.requestReconciler).reconcile(request, context);
	}

	public Result cleanup(T object, ReconcileContext<T> context) throws Exception {
		// only called for a finalizer, which comes with its cleaner
		return Objects.requireNonNull(this.cleaner).cleanup(object, context);
	}

	@Override
	public Result reconcile(Request request) {
		throw new IllegalStateException("A ContextReconciler for " + this.type.getSimpleName()
				+ " runs only in a ControllerManager, which gives it its caches");
	}

}
