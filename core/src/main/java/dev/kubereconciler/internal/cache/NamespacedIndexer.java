package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * An informer's store that holds its objects by namespace and then by name, each name
 * being the object's own {@code metadata.name}.
 *
 * <p>
 * client-java's {@code Cache} keys every object by a {@code namespace/name} string of its
 * own, and indexes the key again by namespace: about 100 bytes per object beside the
 * object, which at 1 KiB of data is a sixth of what the cache holds. Here the namespace
 * index is the first level of the store, and no key is held: keys are made when asked for
 * ({@link #listKeys()}, a relist or a resync) and taken apart when given
 * ({@link #getByKey(String)}). Its keys, its namespace index
 * ({@link Caches#NAMESPACE_INDEX}, always present, cluster-scoped objects under
 * {@code ""}) and the other indexes it is given behave as {@code Cache}'s, except that an
 * index value whose last object left leaves no empty set behind. Other indexes hold keys,
 * made only for the objects they index. Thread-safe: every method holds the store's
 * monitor, as {@code Cache}'s do.
 *
 * @param <T> the model type
 */
final class NamespacedIndexer<T extends KubernetesObject> implements Indexer<T> {

	private static final String CLUSTER = "";

	private Map<String, Map<String, T>> namespaces = new HashMap<>();

	private final Map<String, Function<T, List<String>>> indexers = new HashMap<>();

	// the indexes other than the namespace one, by name
	private final Map<String, Map<String, Set<String>>> indices = new HashMap<>();

	// read on every list of a namespace (CacheView, Lister): a view, not a copy
	private final Map<String, Function<T, List<String>>> indexersView = Collections.unmodifiableMap(this.indexers);

	NamespacedIndexer() {
		this.indexers.put(Caches.NAMESPACE_INDEX, NamespacedIndexer::namespaceIndex);
	}

	private static List<String> namespaceIndex(KubernetesObject object) {
		return Collections.singletonList(namespaceOf(object.getMetadata()));
	}

	@Override
	public synchronized void add(T object) {
		put(object);
	}

	@Override
	public synchronized void update(T object) {
		put(object);
	}

	private void put(T object) {
		V1ObjectMeta metadata = object.getMetadata();
		Map<String, T> names = this.namespaces.computeIfAbsent(namespaceOf(metadata), (namespace) -> new HashMap<>());
		// removed first, so that the map keeps the new object's name, not the old one's
		T previous = names.remove(metadata.getName());
		names.put(metadata.getName(), object);
		if (!this.indices.isEmpty()) {
			String key = Caches.metaNamespaceKeyFunc(object);
			if (previous != null) {
				unindex(previous, key);
			}
			index(object, key);
		}
	}

	@Override
	public synchronized void delete(T object) {
		V1ObjectMeta metadata = object.getMetadata();
		String namespace = namespaceOf(metadata);
		Map<String, T> names = this.namespaces.get(namespace);
		if (names == null) {
			return;
		}
		T previous = names.remove(metadata.getName());
		if (previous == null) {
			return;
		}
		if (names.isEmpty()) {
			this.namespaces.remove(namespace);
		}
		if (!this.indices.isEmpty()) {
			unindex(previous, Caches.metaNamespaceKeyFunc(object));
		}
	}

	@Override
	public synchronized void replace(List<T> objects, String resourceVersion) {
		this.namespaces = new HashMap<>();
		this.indices.replaceAll((name, index) -> new HashMap<>());
		objects.forEach(this::put);
	}

	@Override
	public void resync() {
		// nothing to do: the informer's queue resyncs from the keys
	}

	@Override
	public synchronized List<String> listKeys() {
		List<String> keys = new ArrayList<>(size());
		this.namespaces.values()
			.forEach((names) -> names.values().forEach((object) -> keys.add(Caches.metaNamespaceKeyFunc(object))));
		return keys;
	}

	@Override
	public synchronized @Nullable T get(T object) {
		V1ObjectMeta metadata = object.getMetadata();
		return get(namespaceOf(metadata), metadata.getName());
	}

	@Override
	public synchronized @Nullable T getByKey(String key) {
		int slash = key.indexOf('/');
		return (slash < 0) ? get(CLUSTER, key) : get(key.substring(0, slash), key.substring(slash + 1));
	}

	private @Nullable T get(String namespace, @Nullable String name) {
		Map<String, T> names = this.namespaces.get(namespace);
		return (names != null) ? names.get(name) : null;
	}

	@Override
	public synchronized List<T> list() {
		List<T> objects = new ArrayList<>(size());
		this.namespaces.values().forEach((names) -> objects.addAll(names.values()));
		return objects;
	}

	private int size() {
		int size = 0;
		for (Map<String, T> names : this.namespaces.values()) {
			size += names.size();
		}
		return size;
	}

	@Override
	public synchronized List<T> index(String indexName, T object) {
		List<String> values = indexer(indexName).apply(object);
		if (values == null || values.isEmpty()) {
			return new ArrayList<>();
		}
		if (Caches.NAMESPACE_INDEX.equals(indexName)) {
			Set<T> objects = Collections.newSetFromMap(new IdentityHashMap<>());
			values.forEach((namespace) -> objects.addAll(inNamespace(namespace)));
			return new ArrayList<>(objects);
		}
		Set<String> keys = new HashSet<>();
		Map<String, Set<String>> index = this.indices.getOrDefault(indexName, Map.of());
		for (String value : values) {
			keys.addAll(index.getOrDefault(value, Set.of()));
		}
		return objectsOf(keys);
	}

	@Override
	public synchronized List<String> indexKeys(String indexName, String indexValue) {
		indexer(indexName);
		if (Caches.NAMESPACE_INDEX.equals(indexName)) {
			List<String> keys = new ArrayList<>();
			inNamespace(indexValue).forEach((object) -> keys.add(Caches.metaNamespaceKeyFunc(object)));
			return keys;
		}
		return new ArrayList<>(this.indices.getOrDefault(indexName, Map.of()).getOrDefault(indexValue, Set.of()));
	}

	@Override
	public synchronized List<T> byIndex(String indexName, String indexValue) {
		indexer(indexName);
		if (Caches.NAMESPACE_INDEX.equals(indexName)) {
			return new ArrayList<>(inNamespace(indexValue));
		}
		return objectsOf(this.indices.getOrDefault(indexName, Map.of()).getOrDefault(indexValue, Set.of()));
	}

	private Collection<T> inNamespace(@Nullable String namespace) {
		Map<String, T> names = this.namespaces.get((namespace != null) ? namespace : CLUSTER);
		return (names != null) ? names.values() : List.of();
	}

	private List<T> objectsOf(Set<String> keys) {
		List<T> objects = new ArrayList<>(keys.size());
		for (String key : keys) {
			T object = getByKey(key);
			if (object != null) {
				objects.add(object);
			}
		}
		return objects;
	}

	private Function<T, List<String>> indexer(String indexName) {
		Function<T, List<String>> indexer = this.indexers.get(indexName);
		if (indexer == null) {
			throw new IllegalArgumentException(String.format("index %s doesn't exist!", indexName));
		}
		return indexer;
	}

	@Override
	public Map<String, Function<T, List<String>>> getIndexers() {
		// indexers are added only before the first object, as client-java's Cache allows
		return this.indexersView;
	}

	@Override
	public synchronized void addIndexers(Map<String, Function<T, List<String>>> indexers) {
		if (!this.namespaces.isEmpty()) {
			throw new IllegalStateException("cannot add indexers to a non-empty cache");
		}
		Set<String> conflicts = new HashSet<>(this.indexers.keySet());
		conflicts.retainAll(indexers.keySet());
		if (!conflicts.isEmpty()) {
			throw new IllegalArgumentException("indexer conflict: " + conflicts);
		}
		this.indexers.putAll(indexers);
		indexers.keySet().forEach((name) -> this.indices.put(name, new HashMap<>()));
	}

	private void index(T object, String key) {
		this.indices.forEach((name, index) -> {
			List<String> values = indexer(name).apply(object);
			if (values != null) {
				values.forEach((value) -> index.computeIfAbsent(value, (v) -> new HashSet<>()).add(key));
			}
		});
	}

	private void unindex(T object, String key) {
		this.indices.forEach((name, index) -> {
			List<String> values = indexer(name).apply(object);
			if (values != null) {
				values.forEach((value) -> {
					Set<String> keys = index.get(value);
					if (keys != null && keys.remove(key) && keys.isEmpty()) {
						index.remove(value);
					}
				});
			}
		});
	}

	private static String namespaceOf(@Nullable V1ObjectMeta metadata) {
		String namespace = (metadata != null) ? metadata.getNamespace() : null;
		return (namespace != null) ? namespace : CLUSTER;
	}

}
