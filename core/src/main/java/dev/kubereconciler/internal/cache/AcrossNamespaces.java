package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.Indexer;
import org.jspecify.annotations.Nullable;

/**
 * The store of {@link NamespacedInformers}, read only: a read by key or by namespace goes
 * to the informer of that namespace, every other read goes through them all, as
 * controller-runtime's multi-namespace cache reads.
 *
 * @param <T> the model type
 */
final class AcrossNamespaces<T extends KubernetesObject> implements Indexer<T> {

	private final Map<String, NamespacedInformers.Member<T>> members;

	AcrossNamespaces(Map<String, NamespacedInformers.Member<T>> members) {
		this.members = members;
	}

	private @Nullable Indexer<T> of(String namespace) {
		NamespacedInformers.Member<T> member = this.members.get(namespace);
		return (member != null) ? member.informer().getIndexer() : null;
	}

	@Override
	public @Nullable T getByKey(String key) {
		int slash = key.indexOf('/');
		Indexer<T> indexer = (slash > 0) ? of(key.substring(0, slash)) : null;
		return (indexer != null) ? indexer.getByKey(key) : null;
	}

	@Override
	public @Nullable Object get(T object) {
		return getByKey(Caches.metaNamespaceKeyFunc(object));
	}

	@Override
	public List<T> list() {
		return NamespacedInformers.concat(this.members.values(), Indexer::list);
	}

	@Override
	public List<String> listKeys() {
		List<String> keys = new ArrayList<>();
		this.members.values().forEach((member) -> keys.addAll(member.informer().getIndexer().listKeys()));
		return keys;
	}

	@Override
	public List<T> byIndex(String indexName, String indexedValue) {
		if (Caches.NAMESPACE_INDEX.equals(indexName)) {
			Indexer<T> indexer = of(indexedValue);
			if (indexer == null) {
				return List.of();
			}
			return indexer.getIndexers().containsKey(indexName) ? indexer.byIndex(indexName, indexedValue)
					: indexer.list();
		}
		return NamespacedInformers.concat(this.members.values(), (indexer) -> indexer.byIndex(indexName, indexedValue));
	}

	@Override
	public List<T> index(String indexName, T object) {
		return NamespacedInformers.concat(this.members.values(), (indexer) -> indexer.index(indexName, object));
	}

	@Override
	public List<String> indexKeys(String indexName, String indexedValue) {
		List<String> keys = new ArrayList<>();
		this.members.values()
			.forEach((member) -> keys.addAll(member.informer().getIndexer().indexKeys(indexName, indexedValue)));
		return keys;
	}

	@Override
	public Map<String, Function<T, List<String>>> getIndexers() {
		// every member has the same indexes; the namespace index is always answered
		Map<String, Function<T, List<String>>> indexers = new LinkedHashMap<>();
		indexers.put(Caches.NAMESPACE_INDEX, AcrossNamespaces::namespace);
		this.members.values()
			.stream()
			.findFirst()
			.ifPresent((member) -> indexers.putAll(member.informer().getIndexer().getIndexers()));
		return indexers;
	}

	private static List<String> namespace(KubernetesObject object) {
		String namespace = object.getMetadata().getNamespace();
		return List.of((namespace != null) ? namespace : "");
	}

	@Override
	public void addIndexers(Map<String, Function<T, List<String>>> indexers) {
		throw new UnsupportedOperationException("add indexers through the informer");
	}

	@Override
	public void add(T object) {
		throw readOnly();
	}

	@Override
	public void update(T object) {
		throw readOnly();
	}

	@Override
	public void delete(T object) {
		throw readOnly();
	}

	@Override
	public void replace(List<T> objects, String resourceVersion) {
		throw readOnly();
	}

	@Override
	public void resync() {
		// each namespace's informer resyncs its own store
	}

	private static UnsupportedOperationException readOnly() {
		return new UnsupportedOperationException("the informers of each namespace write their own stores");
	}

}
