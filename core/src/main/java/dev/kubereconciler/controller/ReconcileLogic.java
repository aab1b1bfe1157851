package dev.kubereconciler.controller;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ObjectReconciler;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestReconciler;
import dev.kubereconciler.reconcile.Result;

/**
 * What a controller runs for its watched type, one record per kind of reconcile function,
 * each with the optional finalizer and the dependents. A
 * {@link ControllerDefinitionBuilder} makes it from the function its last call takes;
 * users write the function and read this, and never make it.
 *
 * <ul>
 * <li>{@link ObjectLogic}: an {@link ObjectReconciler} takes a private copy of the cached
 * object and a {@link ReconcileContext}; not called once the object is gone.</li>
 * <li>{@link RequestLogic}: a {@link RequestReconciler} takes the request and a context,
 * also when the object is gone.</li>
 * <li>{@link FunctionLogic}: a {@link ReconcileFunction} takes the request alone, the
 * leanest path, with no context.</li>
 * </ul>
 *
 * @param <T> the watched type
 */
public sealed interface ReconcileLogic<T extends KubernetesObject>
		permits ReconcileLogic.ObjectLogic, ReconcileLogic.RequestLogic, ReconcileLogic.FunctionLogic {

	/**
	 * Return the watched model class.
	 * @return the type
	 */
	Class<T> type();

	/**
	 * Return the finalizer with its cleanup.
	 * @return the cleanup, or {@code null} for none
	 */
	@Nullable Cleanup<T> cleanup();

	/**
	 * Return the dependents.
	 * @return the dependents, empty for none
	 */
	Dependents<T> dependents();

	/**
	 * Run the reconcile function, for the reconcile context that binds it.
	 * @param request the key
	 * @param object a private copy of the cached object, or {@code null} if it is gone
	 * @param context the reconcile context
	 * @return what to do next
	 * @throws Exception any failure of the function
	 */
	Result invoke(Request request, @Nullable T object, ReconcileContext<T> context) throws Exception;

	/**
	 * Return a copy with another finalizer and other dependents, as the builder and the
	 * settings that override a definition make it.
	 * @param cleanup the finalizer with its cleanup, or {@code null} for none
	 * @param dependents the dependents
	 * @return the copy
	 */
	ReconcileLogic<T> with(@Nullable Cleanup<T> cleanup, Dependents<T> dependents);

	/**
	 * Return the finalizer.
	 * @return the finalizer, or {@code null} for none
	 */
	default @Nullable String finalizer() {
		Cleanup<T> cleanup = cleanup();
		return (cleanup != null) ? cleanup.finalizer() : null;
	}

	/**
	 * Return the cleanup of the finalizer.
	 * @return the cleaner, or {@code null} for none
	 */
	default @Nullable Cleaner<T> cleaner() {
		Cleanup<T> cleanup = cleanup();
		return (cleanup != null) ? cleanup.cleaner() : null;
	}

	/**
	 * Return whether the function takes the object, and so is skipped once it is gone.
	 * @return whether it takes the object
	 */
	default boolean takesObject() {
		return this instanceof ObjectLogic;
	}

	/**
	 * Return whether the controller needs a reconcile context and the manager's caches:
	 * for a function that takes one, for a finalizer, or for dependents.
	 * @return whether it needs a context
	 */
	default boolean needsContext() {
		return !(this instanceof FunctionLogic) || cleanup() != null || !dependents().isEmpty();
	}

	/**
	 * Return whether the reconciler may write the watched type's status: it takes a
	 * context, which offers {@code updateStatus} and {@code applyStatus}, and the type
	 * has a status. The derived RBAC grants the {@code /status} subresource for it, and
	 * the manager checks at start that the API server serves that subresource.
	 * @return whether the controller writes status
	 */
	default boolean writesStatus() {
		return needsContext() && hasStatus(type());
	}

	// client-java models of types with a /status subresource carry a status field;
	// ConfigMaps and Secrets have none, so their reconcilers write no status
	private static boolean hasStatus(Class<?> type) {
		try {
			type.getMethod("getStatus");
			return true;
		}
		catch (NoSuchMethodException ex) {
			return false;
		}
	}

	/**
	 * Logic that reconciles a private copy of each cached object.
	 *
	 * @param <T> the watched type
	 * @param type the watched model class
	 * @param reconciler the user's function
	 * @param cleanup the finalizer with its cleanup, or {@code null} for none
	 * @param dependents the dependents
	 */
	record ObjectLogic<T extends KubernetesObject>(Class<T> type, ObjectReconciler<T> reconciler,
			@Nullable Cleanup<T> cleanup, Dependents<T> dependents) implements ReconcileLogic<T> {

		public ObjectLogic {
			Objects.requireNonNull(type, "type must not be null");
			Objects.requireNonNull(reconciler, "reconciler must not be null");
			Objects.requireNonNull(dependents, "dependents must not be null");
		}

		@Override
		public Result invoke(Request request, @Nullable T object, ReconcileContext<T> context) throws Exception {
			return this.reconciler.reconcile(Objects.requireNonNull(object), context);
		}

		@Override
		public ReconcileLogic<T> with(@Nullable Cleanup<T> cleanup, Dependents<T> dependents) {
			return new ObjectLogic<>(this.type, this.reconciler, cleanup, dependents);
		}

	}

	/**
	 * Logic that reconciles each request with a context, also when the object is gone.
	 *
	 * @param <T> the watched type
	 * @param type the watched model class
	 * @param reconciler the user's function
	 * @param cleanup the finalizer with its cleanup, or {@code null} for none
	 * @param dependents the dependents
	 */
	record RequestLogic<T extends KubernetesObject>(Class<T> type, RequestReconciler<T> reconciler,
			@Nullable Cleanup<T> cleanup, Dependents<T> dependents) implements ReconcileLogic<T> {

		public RequestLogic {
			Objects.requireNonNull(type, "type must not be null");
			Objects.requireNonNull(reconciler, "reconciler must not be null");
			Objects.requireNonNull(dependents, "dependents must not be null");
		}

		@Override
		public Result invoke(Request request, @Nullable T object, ReconcileContext<T> context) throws Exception {
			return this.reconciler.reconcile(request, context);
		}

		@Override
		public ReconcileLogic<T> with(@Nullable Cleanup<T> cleanup, Dependents<T> dependents) {
			return new RequestLogic<>(this.type, this.reconciler, cleanup, dependents);
		}

	}

	/**
	 * Logic that reconciles each request alone; it runs without a context unless a
	 * finalizer or dependents need one.
	 *
	 * @param <T> the watched type
	 * @param type the watched model class
	 * @param function the user's function
	 * @param cleanup the finalizer with its cleanup, or {@code null} for none
	 * @param dependents the dependents
	 */
	record FunctionLogic<T extends KubernetesObject>(Class<T> type, ReconcileFunction function,
			@Nullable Cleanup<T> cleanup, Dependents<T> dependents) implements ReconcileLogic<T> {

		public FunctionLogic {
			Objects.requireNonNull(type, "type must not be null");
			Objects.requireNonNull(function, "function must not be null");
			Objects.requireNonNull(dependents, "dependents must not be null");
		}

		@Override
		public Result invoke(Request request, @Nullable T object, ReconcileContext<T> context) throws Exception {
			return this.function.reconcile(request);
		}

		@Override
		public ReconcileLogic<T> with(@Nullable Cleanup<T> cleanup, Dependents<T> dependents) {
			return new FunctionLogic<>(this.type, this.function, cleanup, dependents);
		}

	}

	/**
	 * A finalizer that every object gets before its first reconcile, with the cleanup
	 * that runs once the object's deletion is requested; the finalizer is removed when
	 * the cleaner returns {@link Result#done()}.
	 *
	 * @param <T> the watched type
	 * @param finalizer the finalizer, qualified with a domain, such as
	 * {@code example.com/cleanup}
	 * @param cleaner the cleanup
	 */
	record Cleanup<T extends KubernetesObject>(String finalizer, Cleaner<T> cleaner) {

		public Cleanup {
			checkFinalizer(finalizer);
			Objects.requireNonNull(cleaner, "cleaner must not be null");
		}

		/**
		 * Check a finalizer name as the API server does: it must be qualified with a
		 * domain.
		 * @param finalizer the finalizer
		 * @return the finalizer
		 * @throws IllegalArgumentException if it is empty or not qualified, saying how to
		 * fix it
		 */
		public static String checkFinalizer(@Nullable String finalizer) {
			if (finalizer == null || finalizer.isBlank()) {
				throw new IllegalArgumentException("A finalizer name must not be empty");
			}
			if (!finalizer.contains("/")) {
				throw new IllegalArgumentException("Finalizer '" + finalizer
						+ "' must be qualified with a domain, such as example.com/cleanup, as the API server requires");
			}
			return finalizer;
		}

	}

}
