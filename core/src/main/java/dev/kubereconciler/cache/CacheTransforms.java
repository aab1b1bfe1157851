package dev.kubereconciler.cache;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.TransformFunc;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.reconcile.KubernetesObjects;

/**
 * What the informers change in an object before they cache it and hand it to the
 * controllers: by default they drop {@code metadata.managedFields}, as
 * controller-runtime's {@code cache.TransformStripManagedFields} does, because
 * server-side apply bookkeeping is often the largest part of a small object and
 * reconcilers rarely read it. By default they also compact every object (see
 * {@link #compact(boolean)}), which changes how it is held, not what it says.
 *
 * <p>
 * A type can also be cached with its metadata only (its spec, data and status dropped),
 * and can have a transform of its own, which runs after the built-in ones. Transforms
 * apply to every object an informer receives, so they must be quick, must not block, and
 * should return the object they were given, changed in place, or a copy. A transform that
 * throws leaves that object as it was and is logged. Instances are immutable.
 */
public final class CacheTransforms {

	private static final Logger logger = LoggerFactory.getLogger(CacheTransforms.class);

	private static final CacheTransforms DEFAULTS = new CacheTransforms(true, true, Set.of(), Map.of());

	private final boolean stripManagedFields;

	private final boolean compact;

	private final Set<Class<?>> metadataOnly;

	private final Map<Class<?>, UnaryOperator<KubernetesObject>> custom;

	private CacheTransforms(boolean stripManagedFields, boolean compact, Set<Class<?>> metadataOnly,
			Map<Class<?>, UnaryOperator<KubernetesObject>> custom) {
		this.stripManagedFields = stripManagedFields;
		this.compact = compact;
		this.metadataOnly = metadataOnly;
		this.custom = custom;
	}

	/**
	 * Return the defaults: {@code managedFields} are dropped from every cached object,
	 * and cached objects are compacted.
	 * @return the default transforms
	 */
	public static CacheTransforms defaults() {
		return DEFAULTS;
	}

	/**
	 * Return these transforms with {@code managedFields} dropped or kept.
	 * @param strip whether to drop {@code metadata.managedFields} of every cached object
	 * @return new transforms
	 */
	public CacheTransforms stripManagedFields(boolean strip) {
		return new CacheTransforms(strip, this.compact, this.metadataOnly, this.custom);
	}

	/**
	 * Return these transforms with cached objects compacted or kept as decoded.
	 * Compacting shares equal strings and timestamps that many objects repeat (namespace,
	 * label and annotation keys and short values, owner references, finalizers, creation
	 * times, ConfigMap and Secret data keys) through bounded interners, and replaces
	 * small label, annotation and data maps by mutable, ordered array maps. It runs after
	 * every other transform, a type's own included.
	 * @param compact whether to compact every cached object
	 * @return new transforms
	 */
	public CacheTransforms compact(boolean compact) {
		return new CacheTransforms(this.stripManagedFields, compact, this.metadataOnly, this.custom);
	}

	/**
	 * Return these transforms with objects of the type cached with their metadata only:
	 * {@code apiVersion}, {@code kind} and {@code metadata}. The API server still sends
	 * whole objects; the rest is dropped before caching.
	 * @param type the model type, which must have a public no-argument constructor and
	 * {@code setApiVersion}, {@code setKind} and {@code setMetadata} methods
	 * @return new transforms
	 */
	public CacheTransforms metadataOnly(Class<? extends KubernetesObject> type) {
		MetadataCopier.of(type);
		Set<Class<?>> types = new LinkedHashSet<>(this.metadataOnly);
		types.add(type);
		return new CacheTransforms(this.stripManagedFields, this.compact, Collections.unmodifiableSet(types),
				this.custom);
	}

	/**
	 * Return these transforms with a transform of the type's own, run after the built-in
	 * ones; it replaces any earlier one for the type.
	 * @param <T> the model type
	 * @param type the model type
	 * @param transform returns the object to cache, not {@code null}
	 * @return new transforms
	 */
	@SuppressWarnings("unchecked")
	public <T extends KubernetesObject> CacheTransforms transform(Class<T> type, UnaryOperator<T> transform) {
		if (type == null || transform == null) {
			throw new IllegalArgumentException("type and transform must not be null");
		}
		Map<Class<?>, UnaryOperator<KubernetesObject>> custom = new LinkedHashMap<>(this.custom);
		custom.put(type, (UnaryOperator<KubernetesObject>) transform);
		return new CacheTransforms(this.stripManagedFields, this.compact, this.metadataOnly,
				Collections.unmodifiableMap(custom));
	}

	/**
	 * Return whether {@code managedFields} are dropped.
	 * @return whether managed fields are stripped
	 */
	public boolean isStripManagedFields() {
		return this.stripManagedFields;
	}

	/**
	 * Return whether cached objects are compacted.
	 * @return whether objects are compacted
	 */
	public boolean isCompact() {
		return this.compact;
	}

	/**
	 * Return the informer transform for a type.
	 * @param type the model type
	 * @param compactor the compactor of the manager's informers
	 * @return the transform, or {@code null} when objects of the type are cached as
	 * received
	 */
	public @Nullable TransformFunc forType(Class<?> type, CacheCompactor compactor) {
		MetadataCopier copier = this.metadataOnly.contains(type) ? MetadataCopier.of(type) : null;
		UnaryOperator<KubernetesObject> custom = this.custom.get(type);
		CacheCompactor compacting = this.compact ? compactor : null;
		if (!this.stripManagedFields && copier == null && custom == null && compacting == null) {
			return null;
		}
		boolean strip = this.stripManagedFields;
		return (object) -> compactSafely(transform(object, strip, copier, custom), compacting);
	}

	private static @Nullable KubernetesObject compactSafely(@Nullable KubernetesObject object,
			@Nullable CacheCompactor compactor) {
		if (compactor == null || object == null) {
			return object;
		}
		try {
			return compactor.compact(object);
		}
		catch (RuntimeException ex) {
			logger.warn("Compacting {} failed; caching it as it is", KubernetesObjects.describe(object), ex);
			return object;
		}
	}

	private static @Nullable KubernetesObject transform(@Nullable KubernetesObject object, boolean strip,
			@Nullable MetadataCopier copier, @Nullable UnaryOperator<KubernetesObject> custom) {
		if (object == null) {
			return null;
		}
		KubernetesObject result = object;
		try {
			if (strip && result.getMetadata() != null) {
				result.getMetadata().setManagedFields(null);
			}
			if (copier != null) {
				result = copier.copy(result);
			}
			if (custom != null) {
				KubernetesObject transformed = custom.apply(result);
				if (transformed == null) {
					throw new IllegalStateException("the transform returned null");
				}
				result = transformed;
			}
			return result;
		}
		catch (RuntimeException ex) {
			logger.warn("Cache transform of {} failed; caching the object as received",
					KubernetesObjects.describe(object), ex);
			return object;
		}
	}

	/**
	 * Makes a new object of a model type that holds only another's type and metadata.
	 */
	private record MetadataCopier(MethodHandle constructor, MethodHandle apiVersion, MethodHandle kind,
			MethodHandle metadata) {

		private static final Map<Class<?>, MetadataCopier> copiers = new java.util.concurrent.ConcurrentHashMap<>();

		static MetadataCopier of(Class<?> type) {
			return copiers.computeIfAbsent(type, MetadataCopier::create);
		}

		private static MetadataCopier create(Class<?> type) {
			MethodHandles.Lookup lookup = MethodHandles.publicLookup();
			try {
				MethodType setString = MethodType.methodType(void.class, String.class);
				return new MetadataCopier(lookup.findConstructor(type, MethodType.methodType(void.class)),
						lookup.findVirtual(type, "setApiVersion", setString),
						lookup.findVirtual(type, "setKind", setString),
						lookup.findVirtual(type, "setMetadata", MethodType.methodType(void.class, V1ObjectMeta.class)));
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalArgumentException(
						type.getName() + " cannot be cached metadata-only: it needs a "
								+ "public no-argument constructor and setApiVersion, setKind and setMetadata methods",
						ex);
			}
		}

		KubernetesObject copy(KubernetesObject object) {
			try {
				KubernetesObject copy = (KubernetesObject) this.constructor.invoke();
				this.apiVersion.invoke(copy, object.getApiVersion());
				this.kind.invoke(copy, object.getKind());
				this.metadata.invoke(copy, object.getMetadata());
				return copy;
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
