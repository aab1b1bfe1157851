package dev.kubereconciler.autoconfigure.reconciler;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * Registers the reflection that the engine and Gson do on a client-java model: the
 * engine's private copy of a cached object and its defaults walk every declared field,
 * create instances through the no-argument (or a record's canonical) constructor and read
 * {@code getStatus()}; a controller finds the model's {@code <Name>List} class by name;
 * and Gson reads and writes the fields, through the adapters named by
 * {@code @JsonAdapter}.
 */
public final class ModelHints {

	private static final MemberCategory[] MODEL = { MemberCategory.ACCESS_DECLARED_FIELDS,
			MemberCategory.INVOKE_DECLARED_CONSTRUCTORS, MemberCategory.INVOKE_PUBLIC_METHODS };

	private ModelHints() {
	}

	/**
	 * Register a model, its list class, its superclasses and every type its fields hold,
	 * down to the JDK's own types.
	 * @param hints the hints to add to
	 * @param models the model classes
	 */
	public static void register(RuntimeHints hints, Class<?>... models) {
		Set<Class<?>> seen = new HashSet<>();
		Deque<Class<?>> pending = new ArrayDeque<>();
		for (Class<?> model : models) {
			pending.add(model);
			String list = model.getName() + "List";
			if (ClassUtils.isPresent(list, model.getClassLoader())) {
				pending.add(ClassUtils.resolveClassName(list, model.getClassLoader()));
			}
		}
		while (!pending.isEmpty()) {
			Class<?> type = pending.removeFirst();
			if (!isWalked(type) || !seen.add(type)) {
				continue;
			}
			hints.reflection().registerType(type, MODEL);
			for (Class<?> nested : type.getDeclaredClasses()) {
				// the adapters that @JsonAdapter names, which Gson instantiates
				hints.reflection().registerType(nested, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
			}
			if (type.getSuperclass() != null) {
				pending.add(type.getSuperclass());
			}
			// the inherited fields too, resolved against this class: CustomResource<S, T>
			// declares spec as an S
			for (Class<?> current = type; current != null && isWalked(current); current = current.getSuperclass()) {
				for (Field field : current.getDeclaredFields()) {
					if (!Modifier.isStatic(field.getModifiers())) {
						addTypes(ResolvableType.forField(field, type), pending, 0);
					}
				}
			}
		}
	}

	// the depth stops at a self-referencing generic such as Enum<E extends Enum<E>>
	private static void addTypes(ResolvableType type, Deque<Class<?>> pending, int depth) {
		if (depth > 8) {
			return;
		}
		if (type.isArray()) {
			addTypes(type.getComponentType(), pending, depth + 1);
			return;
		}
		Class<?> resolved = type.resolve();
		if (resolved != null) {
			pending.add(resolved);
		}
		for (ResolvableType generic : type.getGenerics()) {
			addTypes(generic, pending, depth + 1);
		}
	}

	// the JDK's types and Gson's own are reachable without hints of ours
	private static boolean isWalked(Class<?> type) {
		if (type.isPrimitive() || type.isArray() || type == Object.class) {
			return false;
		}
		String name = type.getName();
		return !(name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
				|| name.startsWith("sun.") || name.startsWith("com.google.gson."));
	}

}
