package dev.kubereconciler.controller;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.List;

import com.google.gson.annotations.SerializedName;
import org.jspecify.annotations.Nullable;

/**
 * Checks that a watched model has what its reconcile logic will read and write, when the
 * controller is defined rather than at its first write: a {@code getStatus()} for a
 * context's status writes, and a {@code status.conditions} list for the dependents'
 * {@code Ready} condition.
 */
final class ModelReflection {

	private ModelReflection() {
	}

	/**
	 * Check a controller's model against its reconcile logic.
	 * @param logic the logic
	 * @throws IllegalArgumentException if the model lacks what the logic needs, naming
	 * the class and the fix
	 */
	static void check(ReconcileLogic<?> logic) {
		Class<?> type = logic.type();
		// a logic that needs a context and writes no status is one whose model has no
		// getStatus(): refused only when the model does carry a status
		if (logic.needsContext() && !logic.writesStatus()) {
			checkStatusAccessor(type);
		}
		if (logic.dependents().readyCondition()) {
			checkConditions(type);
		}
	}

	/**
	 * A context offers {@code updateStatus}, which reads the status through
	 * {@code getStatus()}: a model with a status field but no such method would fail
	 * every status write and be retried for ever, so it is refused before it starts.
	 */
	private static void checkStatusAccessor(Class<?> type) {
		if (!hasField(type, "status")) {
			return;
		}
		throw new IllegalArgumentException(type.getName() + " has a status field but no public getStatus() method, "
				+ "which a reconcile context needs to read and write its status (updateStatus, applyStatus): add "
				+ "a public getStatus() to " + type.getSimpleName() + ", or extend "
				+ "dev.kubereconciler.model.CustomResource<Spec, Status>, which has one");
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

}
