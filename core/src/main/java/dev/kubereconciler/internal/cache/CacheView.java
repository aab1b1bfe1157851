package dev.kubereconciler.internal.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.Indexer;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.time.Ticker;

/**
 * The view of one type's informer cache that reconcilers read: the informer's objects,
 * overlaid with what reconcilers wrote through their context until the informer catches
 * up, as JOSDK's temporary resource cache does.
 *
 * <p>
 * A written object is kept only while the informer holds an older version of it. Resource
 * versions are compared as integers when both are numeric, as the API server's are;
 * otherwise the informer wins as soon as its version differs from the one it held when
 * the write was made.
 *
 * <p>
 * A delete event drops the written versions at or before its own resourceVersion, not a
 * newer object created again under the same name. The view remembers each deletion for
 * {@link #RETENTION}, so that a write whose answer comes back after the watch reported
 * the object gone (deleted, or out of the watch's label selector) is not kept. A written
 * version that no event ever supersedes, such as an object created outside the watch's
 * selector, is dropped after the same retention, so that no entry outlives its object for
 * long.
 */
public final class CacheView implements ResourceEventHandler<KubernetesObject> {

	/**
	 * How long a written version waits for the informer, and how long a deletion is
	 * remembered: far longer than an API request or a watch event takes.
	 */
	static final Duration RETENTION = Duration.ofMinutes(5);

	private static final long RETENTION_NANOS = RETENTION.toNanos();

	private static final long PRUNE_INTERVAL_NANOS = RETENTION_NANOS / 5;

	private final SharedIndexInformer<? extends KubernetesObject> informer;

	private final Map<String, Written> written = new ConcurrentHashMap<>();

	private final Map<String, Deletion> deletions = new ConcurrentHashMap<>();

	private final Ticker ticker;

	private final ViewIndexes indexes;

	private volatile long nextPrune;

	/**
	 * Create a view and register it with the informer, which must not have started yet
	 * for the owner index to be added.
	 * @param informer the informer
	 * @param ticker the time source of the retention
	 */
	public CacheView(SharedIndexInformer<? extends KubernetesObject> informer, Ticker ticker) {
		this.informer = informer;
		this.ticker = ticker;
		this.nextPrune = ticker.read() + PRUNE_INTERVAL_NANOS;
		this.indexes = new ViewIndexes(informer);
		addHandler(informer, this);
	}

	/**
	 * Register a handler with an informer of any model type. The handlers of the engine
	 * take any {@code KubernetesObject}, which client-java's generics cannot accept for
	 * an informer of a subtype: the one raw call is here, for every caller.
	 * @param informer the informer
	 * @param handler the handler
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public static void addHandler(SharedIndexInformer<?> informer, ResourceEventHandler<?> handler) {
		((SharedIndexInformer) informer).addEventHandler((ResourceEventHandler) handler);
	}

	/**
	 * Return the newest known version of an object, shared: callers copy it.
	 * @param key the {@code namespace/name} key
	 * @return the object, or {@code null}
	 */
	public @Nullable KubernetesObject get(String key) {
		KubernetesObject cached = unlessDeleted(key, this.informer.getIndexer().getByKey(key));
		Written write = this.written.get(key);
		if (write == null) {
			return cached;
		}
		if (expired(write, this.ticker.read()) || (cached != null && supersedes(cached, write))
				|| deleted(key, write)) {
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
		return overlay(writes, this.indexes.owned(ownerUid),
				(object) -> ViewIndexes.ownerUids(object).contains(ownerUid));
	}

	/**
	 * Return the objects a declared index finds by a value, with what reconcilers wrote
	 * and the informer has not caught up with yet: a written object is found by its new
	 * values and no longer by its old ones, as the informer will find it.
	 * @param index the index, added to the informer before it started
	 * @param value the value
	 * @return the objects, shared: callers copy them
	 */
	public List<KubernetesObject> byIndex(FieldIndex<?> index, String value) {
		Map<String, Written> writes = writes();
		return overlay(writes, DeclaredIndexes.find(this.informer.getIndexer(), index, value),
				(object) -> DeclaredIndexes.valuesOf(index, object).contains(value));
	}

	/**
	 * Return the members of an ApplySet: the objects whose
	 * {@code applyset.kubernetes.io/part-of} label holds its id, whether or not an owner
	 * reference reaches them, found by an index rather than what this process applied.
	 * @param setId the ApplySet id
	 * @return the objects, shared: callers copy them
	 */
	public List<KubernetesObject> partOf(String setId) {
		Map<String, Written> writes = writes();
		return overlay(writes, this.indexes.partOf(setId), (object) -> ViewIndexes.applySets(object).contains(setId));
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
			String key = Caches.metaNamespaceKeyFunc(object);
			if (unlessDeleted(key, object) != null) {
				result.put(key, object);
			}
		}
		long now = this.ticker.read();
		writes.forEach((key, write) -> {
			if (expired(write, now) || deleted(key, write)) {
				return;
			}
			KubernetesObject cached = this.informer.getIndexer().getByKey(key);
			result.put(key, (cached != null && supersedes(cached, write)) ? cached : write.object());
		});
		result.values().removeIf(filter.negate());
		return new ArrayList<>(result.values());
	}

	/**
	 * Remember what the server answered to a write, unless the informer already holds
	 * that version or a newer one, or already reported that version deleted.
	 * @param object the server's answer, which the view keeps: callers hand out copies
	 */
	public void written(KubernetesObject object) {
		if (object == null || object.getMetadata() == null) {
			return;
		}
		long now = this.ticker.read();
		prune(now);
		// checked and stored in one step per key: a delete event recorded meanwhile
		// either is seen here or, once this returns, removes what was stored
		this.written.compute(Caches.metaNamespaceKeyFunc(object), (key, previous) -> {
			Deletion deletion = this.deletions.get(key);
			if (deletion != null && deletion.removes(object)) {
				return previous;
			}
			KubernetesObject cached = this.informer.getIndexer().getByKey(key);
			String cachedVersion = (cached != null) ? cached.getMetadata().getResourceVersion() : null;
			Written write = new Written(object, cachedVersion, now);
			if (cached != null && supersedes(cached, write)) {
				return previous;
			}
			return (previous == null || ResourceVersions.isNewer(write.version(), previous.version())) ? write
					: previous;
		});
	}

	/**
	 * Record that a write removed an object, such as the removal of its last finalizer,
	 * so that the informer's version of it is no longer read while its delete event is on
	 * its way.
	 * @param object the server's last answer about the object
	 */
	public void deleted(KubernetesObject object) {
		if (object != null && object.getMetadata() != null) {
			recordDeletion(object);
		}
	}

	private boolean deleted(String key, Written write) {
		Deletion deletion = this.deletions.isEmpty() ? null : this.deletions.get(key);
		return deletion != null && deletion.removes(write.object());
	}

	private @Nullable KubernetesObject unlessDeleted(String key, @Nullable KubernetesObject cached) {
		if (cached == null || this.deletions.isEmpty()) {
			return cached;
		}
		Deletion deletion = this.deletions.get(key);
		return (deletion != null && deletion.removes(cached)) ? null : cached;
	}

	int writtenCount() {
		return this.written.size();
	}

	int tombstoneCount() {
		return this.deletions.size();
	}

	public void forget(String key) {
		this.written.remove(key);
	}

	private static boolean supersedes(KubernetesObject cached, Written write) {
		String cachedVersion = cached.getMetadata().getResourceVersion();
		if (ResourceVersions.isNumeric(cachedVersion) && ResourceVersions.isNumeric(write.version())) {
			return Long.parseLong(cachedVersion) >= Long.parseLong(write.version());
		}
		return !Objects.equals(cachedVersion, write.versionBefore());
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
		if (object == null || object.getMetadata() == null) {
			return;
		}
		recordDeletion(object);
	}

	private void recordDeletion(KubernetesObject object) {
		long now = this.ticker.read();
		String key = Caches.metaNamespaceKeyFunc(object);
		Deletion deletion = new Deletion(object.getMetadata().getUid(), object.getMetadata().getResourceVersion(), now);
		this.deletions.merge(key, deletion,
				(previous, next) -> ResourceVersions.isNewer(next.version(), previous.version()) ? next : previous);
		this.written.computeIfPresent(key, (ignored, write) -> deletion.removes(write.object()) ? null : write);
		prune(now);
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
		// the name is back in the watch with a newer object: a late answer about the
		// deleted one is older than what the informer now holds
		this.deletions.computeIfPresent(key, (ignored, deletion) -> deletion.removes(object) ? deletion : null);
		prune(this.ticker.read());
	}

	private static boolean expired(Written write, long now) {
		return now - write.at() >= RETENTION_NANOS;
	}

	private void prune(long now) {
		if (now - this.nextPrune < 0) {
			return;
		}
		this.nextPrune = now + PRUNE_INTERVAL_NANOS;
		this.written.values().removeIf((write) -> expired(write, now));
		this.deletions.values().removeIf((deletion) -> now - deletion.at() >= RETENTION_NANOS);
	}

	/**
	 * The server's answer to a write, the version the informer held when it came back,
	 * and when.
	 */
	private record Written(KubernetesObject object, @Nullable String versionBefore, long at) {

		String version() {
			return this.object.getMetadata().getResourceVersion();
		}

	}

	/**
	 * A delete event of the informer: the object that left the watch and when.
	 */
	private record Deletion(@Nullable String uid, @Nullable String version, long at) {

		/**
		 * Whether an object is this deletion's object at or before the version deleted:
		 * by resourceVersion when both are numeric, otherwise by uid.
		 */
		boolean removes(KubernetesObject object) {
			String objectVersion = object.getMetadata().getResourceVersion();
			String deleted = this.version;
			if (deleted != null && ResourceVersions.isNumeric(objectVersion) && ResourceVersions.isNumeric(deleted)) {
				return Long.parseLong(objectVersion) <= Long.parseLong(deleted);
			}
			return this.uid != null && this.uid.equals(object.getMetadata().getUid());
		}

	}

}
