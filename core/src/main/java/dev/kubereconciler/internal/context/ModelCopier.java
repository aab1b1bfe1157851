package dev.kubereconciler.internal.context;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.google.gson.JsonElement;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import org.jspecify.annotations.Nullable;

/**
 * Deep-copies client-java model objects field by field, so that a reconciler can change
 * its copy of a cached object without a JSON round trip.
 *
 * <p>
 * Each model class is inspected once: its fields (those of its superclasses included) and
 * its no-argument constructor, or a record's components and canonical constructor, as a
 * spec or status of a {@link dev.kubereconciler.model.CustomResource} may be. Immutable
 * values (strings, numbers, dates, {@link Quantity}, {@link IntOrString}, enums) are
 * shared; lists, sets, maps and arrays are copied.
 */
public final class ModelCopier {

	private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Character.class, Byte.class,
			Short.class, Integer.class, Long.class, Float.class, Double.class, BigDecimal.class, BigInteger.class,
			OffsetDateTime.class, Instant.class, LocalDate.class, UUID.class, URI.class, Quantity.class,
			IntOrString.class);

	private final ClassValue<Plan> plans = new ClassValue<>() {

		@Override
		protected Plan computeValue(Class<?> type) {
			return Plan.of(type);
		}

	};

	/**
	 * Return a deep copy of a model object.
	 * @param <T> the model type
	 * @param object the object, may be {@code null}
	 * @return the copy, of the same class
	 * @throws IllegalArgumentException if a class in the object has no no-argument
	 * constructor
	 */
	@SuppressWarnings("unchecked")
	public <T> @Nullable T copy(@Nullable T object) {
		return (T) copyValue(object);
	}

	private @Nullable Object copyValue(@Nullable Object value) {
		if (value == null) {
			return null;
		}
		Class<?> type = value.getClass();
		if (IMMUTABLE.contains(type) || type.isEnum() || type.isPrimitive()) {
			return value;
		}
		if (value instanceof List<?> list) {
			List<Object> copy = new ArrayList<>(list.size());
			for (Object item : list) {
				copy.add(copyValue(item));
			}
			return copy;
		}
		if (value instanceof Map<?, ?> map) {
			Map<Object, Object> copy = new LinkedHashMap<>(Math.max(4, (int) (map.size() / 0.75f) + 1));
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				copy.put(entry.getKey(), copyValue(entry.getValue()));
			}
			return copy;
		}
		if (value instanceof Set<?> set) {
			Set<Object> copy = new LinkedHashSet<>();
			for (Object item : set) {
				copy.add(copyValue(item));
			}
			return copy;
		}
		if (value instanceof Collection<?> collection) {
			List<Object> copy = new ArrayList<>(collection.size());
			for (Object item : collection) {
				copy.add(copyValue(item));
			}
			return copy;
		}
		if (type.isArray()) {
			return copyArray(value, type);
		}
		if (value instanceof JsonElement json) {
			return json.deepCopy();
		}
		return this.plans.get(type).copy(value, this);
	}

	private Object[] copyComponents(Object[] components) {
		Object[] copies = new Object[components.length];
		for (int i = 0; i < components.length; i++) {
			copies[i] = copyValue(components[i]);
		}
		return copies;
	}

	private Object copyArray(Object array, Class<?> type) {
		int length = Array.getLength(array);
		if (type.getComponentType().isPrimitive()) {
			Object copy = Array.newInstance(type.getComponentType(), length);
			System.arraycopy(array, 0, copy, 0, length);
			return copy;
		}
		Object[] copy = (Object[]) Array.newInstance(type.getComponentType(), length);
		for (int i = 0; i < length; i++) {
			copy[i] = copyValue(Array.get(array, i));
		}
		return copy;
	}

	/**
	 * How to copy one class: its constructor and fields, found once; for a record, its
	 * canonical constructor and its fields in the order of its components, since a
	 * record's fields cannot be set.
	 */
	private record Plan(Constructor<?> constructor, Field[] fields, boolean[] shared, boolean record) {

		static Plan of(Class<?> type) {
			if (type.isRecord()) {
				return ofRecord(type);
			}
			Constructor<?> constructor;
			try {
				constructor = type.getDeclaredConstructor();
				constructor.setAccessible(true);
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				throw new IllegalArgumentException("Cannot copy " + type.getName()
						+ ": it needs a no-argument constructor, as client-java models have", ex);
			}
			List<Field> fields = new ArrayList<>();
			for (Class<?> current = type; current != null
					&& current != Object.class; current = current.getSuperclass()) {
				for (Field field : current.getDeclaredFields()) {
					if (!Modifier.isStatic(field.getModifiers())) {
						field.setAccessible(true);
						fields.add(field);
					}
				}
			}
			boolean[] shared = new boolean[fields.size()];
			for (int i = 0; i < shared.length; i++) {
				Class<?> fieldType = fields.get(i).getType();
				shared[i] = fieldType.isPrimitive() || IMMUTABLE.contains(fieldType) || fieldType.isEnum();
			}
			return new Plan(constructor, fields.toArray(Field[]::new), shared, false);
		}

		private static Plan ofRecord(Class<?> type) {
			RecordComponent[] components = type.getRecordComponents();
			Class<?>[] types = new Class<?>[components.length];
			Field[] fields = new Field[components.length];
			try {
				for (int i = 0; i < components.length; i++) {
					types[i] = components[i].getType();
					fields[i] = type.getDeclaredField(components[i].getName());
					fields[i].setAccessible(true);
				}
				Constructor<?> constructor = type.getDeclaredConstructor(types);
				constructor.setAccessible(true);
				return new Plan(constructor, fields, new boolean[fields.length], true);
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				throw new IllegalArgumentException("Cannot copy record " + type.getName(), ex);
			}
		}

		Object copy(Object source, ModelCopier copier) {
			try {
				if (this.record) {
					Object[] components = new Object[this.fields.length];
					for (int i = 0; i < components.length; i++) {
						components[i] = this.fields[i].get(source);
					}
					return this.constructor.newInstance(copier.copyComponents(components));
				}
				Object target = this.constructor.newInstance();
				for (int i = 0; i < this.fields.length; i++) {
					Field field = this.fields[i];
					Object value = field.get(source);
					field.set(target, this.shared[i] ? value : copier.copyValue(value));
				}
				return target;
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Cannot copy " + source.getClass().getName(), ex);
			}
		}

	}

}
