package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The view of one type's informer cache that reconcilers read: the informer's objects,
 * overlaid with what reconcilers wrote through their context until the informer catches
 * up, as JOSDK's temporary resource cache does.
 *
 * <p>
 * A written object is kept only while the informer holds an older version of it. Resource
 * versions are compared as integers when both are numeric, as the API server's are;
 * otherwise the informer wins as soon as its version differs from the one it held when
 * the write was made. A delete event drops the written object.
 */
public final class CacheView implements ResourceEventHandler<KubernetesObject> {

	static final String OWNER_INDEX = "kube-reconciler/owner-uid";

	private static final Logger logger = LoggerFactory.getLogger(CacheView.class);

	private final SharedIndexInformer<? extends KubernetesObject> informer;

	private final Map<String, Written> written = new ConcurrentHashMap<>();

	private final boolean indexed;

	@SuppressWarnings({ "unchecked", "rawtypes" })
	public CacheView(SharedIndexInformer<? extends KubernetesObject> informer) {
		this.informer = informer;
		Indexer<? extends KubernetesObject> indexer = informer.getIndexer();
		boolean indexed = indexer.getIndexers().containsKey(OWNER_INDEX);
		if (!indexed) {
			try {
				Function<KubernetesObject, List<String>> ownerUids = CacheView::ownerUids;
				((SharedIndexInformer) informer).addIndexers(Map.of(OWNER_INDEX, ownerUids));
				indexed = true;
			}
			catch (IllegalStateException ex) {
				// an informer of a shared factory that already runs takes no new index:
				// scan it
				logger.warn("Informer for {} already runs; owned objects are found by a scan instead of an index",
						informer.getClass().getSimpleName());
			}
		}
		this.indexed = indexed;
		((SharedIndexInformer) informer).addEventHandler(this);
	}

	private static List<String> ownerUids(KubernetesObject object) {
		V1ObjectMeta metadata = object.getMetadata();
		if (metadata == null || metadata.getOwnerReferences() == null) {
			return List.of();
		}
		List<String> uids = new ArrayList<>(metadata.getOwnerReferences().size());
		for (V1OwnerReference reference : metadata.getOwnerReferences()) {
			if (reference.getUid() != null) {
				uids.add(reference.getUid());
			}
		}
		return uids;
	}

	/**
	 * Return the newest known version of an object, shared: callers copy it.
	 * @param key the {@code namespace/name} key
	 * @return the object, or {@code null}
	 */
	public @Nullable KubernetesObject get(String key) {
		KubernetesObject cached = this.informer.getIndexer().getByKey(key);
		Written write = this.written.get(key);
		if (write == null) {
			return cached;
		}
		if (cached != null && supersedes(cached, write)) {
			this.written.remove(key, write);
			return cached;
		}
		return write.object();
	}

	public List<KubernetesObject> list(@Nullable String namespace, Predicate<KubernetesObject> filter) {
		Map<String, Written> writes = writes();
		Indexer<? extends KubernetesObject> indexer = this.informer.getIndexer();
		List<? extends KubernetesObject> candidates = (namespace != null
				&& indexer.getIndexers().containsKey(Caches.NAMESPACE_INDEX))
						? indexer.byIndex(Caches.NAMESPACE_INDEX, namespace) : indexer.list();
		return overlay(writes, candidates,
				(object) -> (namespace == null || namespace.equals(object.getMetadata().getNamespace()))
						&& filter.test(object));
	}

	public List<KubernetesObject> owned(String ownerUid) {
		Map<String, Written> writes = writes();
		List<? extends KubernetesObject> candidates = this.indexed
				? this.informer.getIndexer().byIndex(OWNER_INDEX, ownerUid) : this.informer.getIndexer().list();
		return overlay(writes, candidates, (object) -> ownerUids(object).contains(ownerUid));
	}

	// The written versions are read before the informer's objects: a write the informer
	// takes in between is then in one or the other, whereas reading them after could find
	// it in neither, once the informer's handler dropped the written version.
	private Map<String, Written> writes() {
		return new LinkedHashMap<>(this.written);
	}

	private List<KubernetesObject> overlay(Map<String, Written> writes, List<? extends KubernetesObject> candidates,
			Predicate<KubernetesObject> filter) {
		Map<String, KubernetesObject> result = new LinkedHashMap<>();
		for (KubernetesObject object : candidates) {
			result.put(Caches.metaNamespaceKeyFunc(object), object);
		}
		writes.forEach((key, write) -> {
			KubernetesObject cached = this.informer.getIndexer().getByKey(key);
			result.put(key, (cached != null && supersedes(cached, write)) ? cached : write.object());
		});
		result.values().removeIf(filter.negate());
		return new ArrayList<>(result.values());
	}

	/**
	 * Remember what the server answered to a write, unless the informer already holds
	 * that version or a newer one.
	 * @param object the server's answer
	 */
	public void written(KubernetesObject object) {
		if (object == null || object.getMetadata() == null) {
			return;
		}
		String key = Caches.metaNamespaceKeyFunc(object);
		KubernetesObject cached = this.informer.getIndexer().getByKey(key);
		String cachedVersion = (cached != null) ? cached.getMetadata().getResourceVersion() : null;
		Written write = new Written(object, cachedVersion);
		if (cached != null && supersedes(cached, write)) {
			return;
		}
		this.written.merge(key, write,
				(previous, next) -> isNewer(next.version(), previous.version()) ? next : previous);
	}

	public void forget(String key) {
		this.written.remove(key);
	}

	private static boolean supersedes(KubernetesObject cached, Written write) {
		String cachedVersion = cached.getMetadata().getResourceVersion();
		if (isNumeric(cachedVersion) && isNumeric(write.version())) {
			return Long.parseLong(cachedVersion) >= Long.parseLong(write.version());
		}
		return !Objects.equals(cachedVersion, write.versionBefore());
	}

	private static boolean isNewer(String version, String than) {
		if (isNumeric(version) && isNumeric(than)) {
			return Long.parseLong(version) > Long.parseLong(than);
		}
		return true;
	}

	private static boolean isNumeric(String version) {
		if (version == null || version.isEmpty() || version.length() > 18) {
			return false;
		}
		for (int i = 0; i < version.length(); i++) {
			if (!Character.isDigit(version.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	@Override
	public void onAdd(KubernetesObject object) {
		evictIfSuperseded(object);
	}

	@Override
	public void onUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
		evictIfSuperseded(newObject);
	}

	@Override
	public void onDelete(KubernetesObject object, boolean finalStateUnknown) {
		if (object != null && object.getMetadata() != null) {
			this.written.remove(Caches.metaNamespaceKeyFunc(object));
		}
	}

	private void evictIfSuperseded(KubernetesObject object) {
		if (object == null || object.getMetadata() == null) {
			return;
		}
		String key = Caches.metaNamespaceKeyFunc(object);
		Written write = this.written.get(key);
		if (write != null && supersedes(object, write)) {
			this.written.remove(key, write);
		}
	}

	/**
	 * The server's answer to a write, and the version the informer held when it came
	 * back.
	 */
	private record Written(KubernetesObject object, @Nullable String versionBefore) {

		String version() {
			return this.object.getMetadata().getResourceVersion();
		}

	}

}
