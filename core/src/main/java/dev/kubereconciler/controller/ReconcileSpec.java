package dev.kubereconciler.controller;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.List;
import java.util.Objects;

import com.google.gson.annotations.SerializedName;
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
 * What a controller runs on each key: one of the three reconcile function types, and
 * optionally a finalizer with its {@link Cleaner}. A {@link ControllerDefinition.Builder}
 * makes it from the function its last call takes; users write the function, not this.
 *
 * <ul>
 * <li>{@link ObjectReconciler}: takes a private copy of the cached object and a
 * {@link ReconcileContext}; not called once the object is gone.</li>
 * <li>{@link RequestReconciler}: takes the request and a context, also when the object is
 * gone.</li>
 * <li>{@link ReconcileFunction}: takes the request alone, the leanest path, with no
 * context.</li>
 * </ul>
 *
 * @param <T> the watched type
 */
public final class ReconcileSpec<T extends KubernetesObject> {

	private final Class<T> type;

	private final @Nullable ObjectReconciler<T> objectReconciler;

	private final @Nullable RequestReconciler<T> requestReconciler;

	private final @Nullable ReconcileFunction function;

	private final @Nullable String finalizer;

	private final @Nullable Cleaner<T> cleaner;

	private final Dependents<T> dependents;

	private ReconcileSpec(Class<T> type, @Nullable ObjectReconciler<T> objectReconciler,
			@Nullable RequestReconciler<T> requestReconciler, @Nullable ReconcileFunction function,
			@Nullable String finalizer, @Nullable Cleaner<T> cleaner, Dependents<T> dependents) {
		this.type = Objects.requireNonNull(type, "type must not be null");
		this.objectReconciler = objectReconciler;
		this.requestReconciler = requestReconciler;
		this.function = function;
		this.finalizer = finalizer;
		this.cleaner = cleaner;
		this.dependents = Objects.requireNonNull(dependents, "dependents must not be null");
		if (needsContext()) {
			checkStatusAccessor(type);
		}
		if (dependents.readyCondition()) {
			checkConditions(type);
		}
	}

	/**
	 * The {@code Ready} condition of the dependents goes into {@code status.conditions}:
	 * a model without that list would lose it to the API server's pruning and write it
	 * again on every reconcile, so it is refused first.
	 */
	private static void checkConditions(Class<?> type) {
		Class<?> status = null;
		try {
			status = resolve(type, type.getMethod("getStatus").getGenericReturnType());
		}
		catch (NoSuchMethodException ex) {
			// refused below
		}
		if (status == null || !hasField(status, "conditions")) {
			throw new IllegalArgumentException(type.getName() + " has no status.conditions, where the dependents' "
					+ "Ready condition goes: add a List<V1Condition> conditions field to its status (and to its CRD "
					+ "schema), or leave the Ready condition off");
		}
	}

	/**
	 * Resolve a return type against a class, so that {@code CustomResource<S, T>}'s
	 * {@code T getStatus()} is the model's status record.
	 */
	private static @Nullable Class<?> resolve(Class<?> type, Type returned) {
		if (returned instanceof Class<?> plain) {
			return plain;
		}
		if (returned instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
			return raw;
		}
		if (returned instanceof TypeVariable<?> variable
				&& variable.getGenericDeclaration() instanceof Class<?> owner) {
			int index = List.of(owner.getTypeParameters()).indexOf(variable);
			for (Class<?> current = type; current != null
					&& current != Object.class; current = current.getSuperclass()) {
				if (current.getGenericSuperclass() instanceof ParameterizedType parent
						&& parent.getRawType() == owner) {
					return resolve(current, parent.getActualTypeArguments()[index]);
				}
			}
		}
		return null;
	}

	private static boolean hasField(Class<?> type, String name) {
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			for (Field field : current.getDeclaredFields()) {
				SerializedName serialized = field.getAnnotation(SerializedName.class);
				if (!Modifier.isStatic(field.getModifiers())
						&& name.equals((serialized != null) ? serialized.value() : field.getName())) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * A context offers {@code updateStatus}, which reads the status through
	 * {@code getStatus()}: a model with a status field but no such method would fail
	 * every status write and be retried for ever, so it is refused before it starts.
	 */
	private static void checkStatusAccessor(Class<?> type) {
		if (hasStatus(type) || !hasStatusField(type)) {
			return;
		}
		throw new IllegalArgumentException(type.getName() + " has a status field but no public getStatus() method, "
				+ "which a reconcile context needs to read and write its status (updateStatus, applyStatus): add "
				+ "a public getStatus() to " + type.getSimpleName() + ", or extend "
				+ "dev.kubereconciler.reconcile.CustomResource<Spec, Status>, which has one");
	}

	private static boolean hasStatusField(Class<?> type) {
		return hasField(type, "status");
	}

	/**
	 * Reconcile a private copy of each cached object; not called once the object is gone.
	 * @param <T> the watched type
	 * @param type the watched model class
	 * @param reconciler the reconcile logic
	 * @return the spec
	 */
	public static <T extends KubernetesObject> ReconcileSpec<T> of(Class<T> type, ObjectReconciler<T> reconciler) {
		return new ReconcileSpec<>(type, Objects.requireNonNull(reconciler, "reconciler must not be null"), null, null,
				null, null, Dependents.none());
	}

	/**
	 * Reconcile each request with a context, also when the object is gone.
	 * @param <T> the watched type
	 * @param type the watched model class
	 * @param reconciler the reconcile logic
	 * @return the spec
	 */
	public static <T extends KubernetesObject> ReconcileSpec<T> ofRequests(Class<T> type,
			RequestReconciler<T> reconciler) {
		return new ReconcileSpec<>(type, null, Objects.requireNonNull(reconciler, "reconciler must not be null"), null,
				null, null, Dependents.none());
	}

	/**
	 * Reconcile each request alone, with no context.
	 * @param <T> the watched type
	 * @param type the watched model class
	 * @param reconciler the reconcile logic
	 * @return the spec
	 */
	public static <T extends KubernetesObject> ReconcileSpec<T> ofFunction(Class<T> type,
			ReconcileFunction reconciler) {
		return new ReconcileSpec<>(type, null, null, Objects.requireNonNull(reconciler, "reconciler must not be null"),
				null, null, Dependents.none());
	}

	/**
	 * Return a copy that adds a finalizer to every object before its first reconcile and
	 * runs the cleaner once the object's deletion is requested, removing the finalizer
	 * when the cleaner returns {@link Result#done()}.
	 * @param finalizer the finalizer, such as {@code example.com/cleanup}
	 * @param cleaner the cleanup
	 * @return the copy
	 * @throws IllegalArgumentException if the finalizer is not qualified with a domain
	 */
	public ReconcileSpec<T> withFinalizer(String finalizer, Cleaner<T> cleaner) {
		return new ReconcileSpec<>(this.type, this.objectReconciler, this.requestReconciler, this.function,
				checkFinalizer(finalizer), Objects.requireNonNull(cleaner, "cleaner must not be null"),
				this.dependents);
	}

	/**
	 * Return a copy whose controller applies these dependents before each reconcile of a
	 * primary object, and prunes what they no longer want.
	 * @param dependents the dependents
	 * @return the copy
	 * @throws IllegalArgumentException if they write a {@code Ready} condition and the
	 * type's status has no conditions
	 */
	public ReconcileSpec<T> withDependents(Dependents<T> dependents) {
		return new ReconcileSpec<>(this.type, this.objectReconciler, this.requestReconciler, this.function,
				this.finalizer, this.cleaner, dependents);
	}

	/**
	 * Return the dependents.
	 * @return the dependents, empty for none
	 */
	public Dependents<T> dependents() {
		return this.dependents;
	}

	/**
	 * Check a finalizer name as the API server does: it must be qualified with a domain.
	 * @param finalizer the finalizer
	 * @return the finalizer
	 * @throws IllegalArgumentException if it is empty or not qualified, saying how to fix
	 * it
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

	/**
	 * Return the watched model class.
	 * @return the type
	 */
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

	/**
	 * Return whether the controller needs a reconcile context and the manager's caches:
	 * for a function that takes one, or for a finalizer.
	 * @return whether it needs a context
	 */
	public boolean needsContext() {
		return this.function == null || this.finalizer != null || !this.dependents.isEmpty();
	}

	/**
	 * Return whether the reconciler may write the watched type's status: it takes a
	 * context, which offers {@code updateStatus} and {@code applyStatus}, and the type
	 * has a status. The derived RBAC grants the {@code /status} subresource for it, and
	 * the manager checks at start that the API server serves that subresource.
	 * @return whether the controller writes status
	 */
	public boolean writesStatus() {
		return needsContext() && hasStatus(this.type);
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
	 * Return the request-only function, which runs on its own when
	 * {@link #needsContext()} is {@code false}.
	 * @return the function, or {@code null} when the logic takes a context
	 */
	public @Nullable ReconcileFunction function() {
		return this.function;
	}

	/**
	 * Run the reconcile logic, for the reconcile context that binds it.
	 * @param request the key
	 * @param object a private copy of the cached object, or {@code null} if it is gone
	 * @param context the reconcile context
	 * @return what to do next
	 * @throws Exception any failure of the logic
	 */
	public Result invoke(Request request, @Nullable T object, ReconcileContext<T> context) throws Exception {
		if (this.objectReconciler != null) {
			return this.objectReconciler.reconcile(Objects.requireNonNull(object), context);
		}
		if (this.requestReconciler != null) {
			return this.requestReconciler.reconcile(request, context);
		}
		return Objects.requireNonNull(this.function).reconcile(request);
	}

	/**
	 * Run the cleanup of the finalizer, for the reconcile context that binds it.
	 * @param object a private copy of the object whose deletion was requested
	 * @param context the reconcile context
	 * @return {@link Result#done()} to remove the finalizer, or a requeue to keep it
	 * @throws Exception any failure of the cleanup
	 */
	public Result cleanup(T object, ReconcileContext<T> context) throws Exception {
		// only called for a finalizer, which comes with its cleaner
		return Objects.requireNonNull(this.cleaner).cleanup(object, context);
	}

}
