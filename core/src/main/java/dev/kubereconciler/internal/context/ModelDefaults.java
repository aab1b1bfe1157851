package dev.kubereconciler.internal.context;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

/**
 * Removes from a model's JSON the empty maps and lists that the model's constructor put
 * there, such as the {@code labels: {}} and {@code containers: []} that client-java's
 * models start with, and keeps every empty value a user set: an {@code emptyDir: {}}
 * volume source, a {@code selector: {}} that selects everything.
 *
 * <p>
 * A value is taken for a default when a freshly constructed instance of its declaring
 * class serializes the same field as an empty map or list. Fields of classes that cannot
 * be constructed without arguments, and entries of maps, are always kept.
 */
final class ModelDefaults {

	private static final ClassValue<Map<String, Field>> FIELDS = new ClassValue<>() {

		@Override
		protected Map<String, Field> computeValue(Class<?> type) {
			Map<String, Field> fields = new HashMap<>();
			for (Class<?> current = type; current != null
					&& current != Object.class; current = current.getSuperclass()) {
				for (Field field : current.getDeclaredFields()) {
					if (Modifier.isStatic(field.getModifiers()) || Modifier.isTransient(field.getModifiers())) {
						continue;
					}
					SerializedName name = field.getAnnotation(SerializedName.class);
					fields.putIfAbsent((name != null) ? name.value() : field.getName(), field);
				}
			}
			return fields;
		}

	};

	private static final ClassValue<Set<String>> EMPTY_BY_DEFAULT = new ClassValue<>() {

		@Override
		protected Set<String> computeValue(Class<?> type) {
			JsonElement fresh;
			try {
				Constructor<?> constructor = type.getDeclaredConstructor();
				constructor.setAccessible(true);
				fresh = JSON.getGson().toJsonTree(constructor.newInstance());
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				return Set.of();
			}
			if (!fresh.isJsonObject()) {
				return Set.of();
			}
			Set<String> keys = new HashSet<>();
			fresh.getAsJsonObject().entrySet().forEach((entry) -> {
				if (isEmpty(entry.getValue())) {
					keys.add(entry.getKey());
				}
			});
			return keys;
		}

	};

	private ModelDefaults() {
	}

	/**
	 * Remove the constructor's empty maps and lists from the JSON of a model, at any
	 * depth.
	 * @param json the JSON of an object of the type
	 * @param type the model class, or {@code null} when unknown: then nothing is removed
	 * at this level
	 */
	static void prune(JsonObject json, @Nullable Class<?> type) {
		Map<String, Field> fields = (type != null) ? FIELDS.get(type) : Map.of();
		Set<String> emptyByDefault = (type != null) ? EMPTY_BY_DEFAULT.get(type) : Set.of();
		for (String key : List.copyOf(json.keySet())) {
			JsonElement value = json.get(key);
			Field field = fields.get(key);
			Type fieldType = (field != null) ? resolve(field.getGenericType(), type) : null;
			descend(value, fieldType);
			if (isEmpty(value) && emptyByDefault.contains(key)) {
				json.remove(key);
			}
		}
	}

	private static void descend(JsonElement value, @Nullable Type type) {
		Class<?> raw = raw(type);
		if (value.isJsonArray()) {
			Type element = (raw != null && List.class.isAssignableFrom(raw)) ? argument(type, 0) : null;
			value.getAsJsonArray().forEach((item) -> descend(item, element));
		}
		else if (value.isJsonObject()) {
			if (raw != null && Map.class.isAssignableFrom(raw)) {
				// a map's entries are the user's: only look inside their values
				Type entry = argument(type, 1);
				value.getAsJsonObject().entrySet().forEach((item) -> descend(item.getValue(), entry));
			}
			else {
				prune(value.getAsJsonObject(), (raw != null && raw != Object.class) ? raw : null);
			}
		}
	}

	/**
	 * The type argument that a model gives a field typed by its superclass's type
	 * variable, such as the spec of a {@link dev.kubereconciler.model.CustomResource}, so
	 * that the empty defaults inside it are known too.
	 */
	private static Type resolve(Type fieldType, @Nullable Class<?> owner) {
		if (!(fieldType instanceof TypeVariable<?> variable)
				|| !(variable.getGenericDeclaration() instanceof Class<?> declaring)) {
			return fieldType;
		}
		for (Class<?> current = owner; current != null && current != Object.class; current = current.getSuperclass()) {
			if (current.getSuperclass() == declaring
					&& current.getGenericSuperclass() instanceof ParameterizedType parameterized) {
				TypeVariable<?>[] variables = declaring.getTypeParameters();
				for (int i = 0; i < variables.length; i++) {
					if (variables[i].equals(variable)) {
						return parameterized.getActualTypeArguments()[i];
					}
				}
			}
		}
		return fieldType;
	}

	private static @Nullable Class<?> raw(@Nullable Type type) {
		if (type instanceof Class<?> plain) {
			return plain;
		}
		if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> plain) {
			return plain;
		}
		return null;
	}

	private static @Nullable Type argument(@Nullable Type type, int index) {
		if (type instanceof ParameterizedType parameterized && parameterized.getActualTypeArguments().length > index) {
			return parameterized.getActualTypeArguments()[index];
		}
		return null;
	}

	private static boolean isEmpty(JsonElement value) {
		return (value.isJsonObject() && value.getAsJsonObject().isEmpty())
				|| (value.isJsonArray() && value.getAsJsonArray().isEmpty());
	}

}
