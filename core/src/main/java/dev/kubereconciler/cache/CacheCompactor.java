package dev.kubereconciler.cache;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ManagedFieldsEntry;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import org.jspecify.annotations.Nullable;

/**
 * Makes cached objects smaller without changing what they say: equal strings and
 * timestamps that many objects repeat (namespace, label and annotation keys and values,
 * owner references, finalizers, creation times, data keys) are shared through bounded
 * interners, and small maps are replaced by {@link CompactMap}s.
 *
 * <p>
 * What stays as decoded: names, uids, resource versions, data values and everything
 * outside the metadata, ConfigMap and Secret data. Everything it shares is immutable, and
 * the maps it puts in stay mutable and ordered, because cached objects reach user code
 * without a copy. The interners are bounded (see {@link BoundedInterner}): at most
 * {@value #NAMES} names of up to {@value #MAX_NAME_LENGTH} characters, {@value #VALUES}
 * values of up to {@value #MAX_VALUE_LENGTH} and {@value #TIMES} timestamps, about 1.7 MB
 * in the worst case, whatever the number of objects. One compactor serves the informers
 * of one manager; it is thread-safe.
 */
public final class CacheCompactor {

	static final int NAMES = 2048;

	static final int VALUES = 8192;

	static final int TIMES = 1024;

	// label keys: a 253-character prefix, a slash and a 63-character name
	static final int MAX_NAME_LENGTH = 320;

	// label values are at most 63 characters, uids 36; longer values are rarely repeated
	static final int MAX_VALUE_LENGTH = 64;

	// scanning is as quick as hashing for this many entries; larger maps keep a
	// hash table
	static final int MAX_COMPACT_ENTRIES = 16;

	private final BoundedInterner<String> names = new BoundedInterner<>(NAMES / 2);

	private final BoundedInterner<String> values = new BoundedInterner<>(VALUES / 2);

	private final BoundedInterner<OffsetDateTime> times = new BoundedInterner<>(TIMES / 2);

	private final ClassValue<TypeSetters> setters = new ClassValue<>() {

		@Override
		protected TypeSetters computeValue(Class<?> type) {
			return TypeSetters.of(type);
		}

	};

	/**
	 * Compact an object in place.
	 * @param <T> the model type
	 * @param object the object
	 * @return the same object
	 */
	<T extends KubernetesObject> @Nullable T compact(@Nullable T object) {
		if (object == null) {
			return null;
		}
		V1ObjectMeta metadata = object.getMetadata();
		// a generic object that decodes its metadata on every call would keep none of it
		if (metadata == null || metadata != object.getMetadata()) {
			return object;
		}
		this.setters.get(object.getClass()).intern(object, this.names);
		compact(metadata);
		if (object instanceof V1ConfigMap configMap) {
			configMap.setData(map(configMap.getData(), false));
			configMap.setBinaryData(map(configMap.getBinaryData(), false));
		}
		else if (object instanceof V1Secret secret) {
			secret.setType(name(secret.getType()));
			secret.setData(map(secret.getData(), false));
			secret.setStringData(map(secret.getStringData(), false));
		}
		return object;
	}

	private void compact(V1ObjectMeta metadata) {
		metadata.setNamespace(name(metadata.getNamespace()));
		metadata.setGenerateName(value(metadata.getGenerateName()));
		metadata.setCreationTimestamp(this.times.intern(metadata.getCreationTimestamp()));
		metadata.setDeletionTimestamp(this.times.intern(metadata.getDeletionTimestamp()));
		metadata.setLabels(map(metadata.getLabels(), true));
		metadata.setAnnotations(map(metadata.getAnnotations(), true));
		List<String> finalizers = metadata.getFinalizers();
		if (finalizers instanceof ArrayList<String> list) {
			list.replaceAll(this::name);
			list.trimToSize();
		}
		List<V1OwnerReference> owners = metadata.getOwnerReferences();
		if (owners != null) {
			for (V1OwnerReference owner : owners) {
				owner.setApiVersion(name(owner.getApiVersion()));
				owner.setKind(name(owner.getKind()));
				// the children of one owner all repeat its name and uid
				owner.setName(value(owner.getName()));
				owner.setUid(value(owner.getUid()));
			}
			trim(owners);
		}
		List<V1ManagedFieldsEntry> managedFields = metadata.getManagedFields();
		if (managedFields != null) {
			for (V1ManagedFieldsEntry entry : managedFields) {
				entry.setManager(name(entry.getManager()));
				entry.setOperation(name(entry.getOperation()));
				entry.setApiVersion(name(entry.getApiVersion()));
				entry.setFieldsType(name(entry.getFieldsType()));
				entry.setSubresource(name(entry.getSubresource()));
				entry.setTime(this.times.intern(entry.getTime()));
			}
			trim(managedFields);
		}
	}

	/**
	 * Return a map with the same entries in the same order, its keys interned, and its
	 * values too where they are strings and {@code internValues} is set.
	 */
	private <V> @Nullable Map<String, V> map(@Nullable Map<String, V> map, boolean internValues) {
		if (map == null || map instanceof CompactMap) {
			return map;
		}
		if (map.size() <= MAX_COMPACT_ENTRIES) {
			Object[] table = new Object[map.size() * 2];
			int index = 0;
			for (Map.Entry<String, V> entry : map.entrySet()) {
				table[index++] = name(entry.getKey());
				table[index++] = internValues ? mapValue(entry.getValue()) : entry.getValue();
			}
			return new CompactMap<>(table);
		}
		Map<String, V> compacted = new LinkedHashMap<>((int) (map.size() / 0.75f) + 1);
		for (Map.Entry<String, V> entry : map.entrySet()) {
			compacted.put(name(entry.getKey()), internValues ? mapValue(entry.getValue()) : entry.getValue());
		}
		return compacted;
	}

	@SuppressWarnings("unchecked")
	private <V> @Nullable V mapValue(V value) {
		return (value instanceof String string) ? (V) value(string) : value;
	}

	private static void trim(List<?> list) {
		if (list instanceof ArrayList<?> arrayList) {
			arrayList.trimToSize();
		}
	}

	private @Nullable String name(@Nullable String name) {
		return (name != null && name.length() <= MAX_NAME_LENGTH) ? this.names.intern(name) : name;
	}

	private @Nullable String value(@Nullable String value) {
		return (value != null && value.length() <= MAX_VALUE_LENGTH) ? this.values.intern(value) : value;
	}

	/**
	 * The {@code setApiVersion} and {@code setKind} methods of a model type, where it has
	 * them.
	 */
	private record TypeSetters(@Nullable MethodHandle apiVersion, @Nullable MethodHandle kind) {

		static TypeSetters of(Class<?> type) {
			MethodHandles.Lookup lookup = MethodHandles.publicLookup();
			MethodType setString = MethodType.methodType(void.class, String.class);
			try {
				return new TypeSetters(
						lookup.findVirtual(type, "setApiVersion", setString)
							.asType(MethodType.methodType(void.class, KubernetesObject.class, String.class)),
						lookup.findVirtual(type, "setKind", setString)
							.asType(MethodType.methodType(void.class, KubernetesObject.class, String.class)));
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				return new TypeSetters(null, null);
			}
		}

		void intern(KubernetesObject object, BoundedInterner<String> names) {
			// both or neither
			if (this.apiVersion == null || this.kind == null) {
				return;
			}
			try {
				this.apiVersion.invokeExact(object, names.intern(object.getApiVersion()));
				this.kind.invokeExact(object, names.intern(object.getKind()));
			}
			catch (RuntimeException | Error ex) {
				throw ex;
			}
			catch (Throwable ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
