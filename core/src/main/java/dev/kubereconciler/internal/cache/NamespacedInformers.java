package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.TransformFunc;
import io.kubernetes.client.informer.cache.Indexer;
import org.jspecify.annotations.Nullable;

/**
 * One informer per namespace for a type that its controllers read in named namespaces
 * only, seen as one informer, as controller-runtime's multi-namespace cache is: each
 * namespace's informer lists and watches that namespace alone, so that namespaced Roles
 * are enough to read it. Handlers and indexes reach every namespace's informer, a read by
 * key goes to the informer of the key's namespace, and a list reads them all.
 *
 * <p>
 * Namespaces can be added and removed while it runs: an added namespace's informer
 * starts, lists and hands its objects to the handlers as adds; a removed one's stops, and
 * its objects leave the view. Only the namespaces it started with count for
 * {@link #hasSynced()}, so that a namespace added later, which the API server may refuse
 * to list, never turns a running manager back to not synced.
 *
 * @param <T> the model type
 */
final class NamespacedInformers<T extends KubernetesObject> implements SharedIndexInformer<T> {

	private final Function<String, SharedIndexInformer<T>> informerFor;

	private final Map<String, Member<T>> members = new ConcurrentHashMap<>();

	private final List<Registration<T>> handlers = new CopyOnWriteArrayList<>();

	private final Map<String, Function<T, List<String>>> indexers = new LinkedHashMap<>();

	private final AcrossNamespaces<T> indexer = new AcrossNamespaces<>(this.members);

	private boolean started;

	private boolean stopped;

	/**
	 * Create the informers of the first namespaces, not started.
	 * @param namespaces the namespaces, at least one
	 * @param informerFor makes the informer of one namespace, not started
	 */
	NamespacedInformers(Set<String> namespaces, Function<String, SharedIndexInformer<T>> informerFor) {
		this.informerFor = informerFor;
		namespaces
			.forEach((namespace) -> this.members.put(namespace, new Member<>(informerFor.apply(namespace), true)));
	}

	/**
	 * Return the namespaces that have an informer now.
	 * @return the namespaces, sorted
	 */
	Set<String> namespaces() {
		return new TreeSet<>(this.members.keySet());
	}

	/**
	 * Give a namespace an informer, started at once if the others run.
	 * @param namespace the namespace
	 * @return {@code true} if it had none
	 */
	synchronized boolean addNamespace(String namespace) {
		if (this.stopped || this.members.containsKey(namespace)) {
			return false;
		}
		SharedIndexInformer<T> informer = this.informerFor.apply(namespace);
		if (!this.indexers.isEmpty()) {
			informer.addIndexers(this.indexers);
		}
		for (Registration<T> registration : this.handlers) {
			registration.addTo(informer);
		}
		this.members.put(namespace, new Member<>(informer, false));
		if (this.started) {
			informer.run();
		}
		return true;
	}

	/**
	 * Stop a namespace's informer and drop its objects from the view.
	 * @param namespace the namespace
	 * @return {@code true} if it had one
	 */
	synchronized boolean removeNamespace(String namespace) {
		Member<T> member = this.members.remove(namespace);
		if (member == null) {
			return false;
		}
		member.informer().stop();
		return true;
	}

	@Override
	public synchronized void addEventHandler(ResourceEventHandler<T> handler) {
		add(new Registration<>(handler, null));
	}

	@Override
	public synchronized void addEventHandlerWithResyncPeriod(ResourceEventHandler<T> handler, long resyncPeriod) {
		add(new Registration<>(handler, resyncPeriod));
	}

	private void add(Registration<T> registration) {
		this.handlers.add(registration);
		this.members.values().forEach((member) -> registration.addTo(member.informer()));
	}

	@Override
	public synchronized void addIndexers(Map<String, Function<T, List<String>>> indexers) {
		if (this.started) {
			throw new IllegalStateException("cannot add indexers to a running informer");
		}
		this.indexers.putAll(indexers);
		this.members.values().forEach((member) -> member.informer().addIndexers(indexers));
	}

	@Override
	public Indexer<T> getIndexer() {
		return this.indexer;
	}

	@Override
	public synchronized void run() {
		if (this.started || this.stopped) {
			return;
		}
		this.started = true;
		this.members.values().forEach((member) -> member.informer().run());
	}

	synchronized boolean isStopped() {
		return this.stopped;
	}

	@Override
	public synchronized void stop() {
		this.stopped = true;
		this.members.values().forEach((member) -> member.informer().stop());
	}

	@Override
	public boolean hasSynced() {
		for (Member<T> member : this.members.values()) {
			if (member.first() && !member.informer().hasSynced()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Return whether a namespace's informer has synced.
	 * @param namespace the namespace
	 * @return {@code false} also when it has no informer
	 */
	boolean hasSynced(String namespace) {
		Member<T> member = this.members.get(namespace);
		return member != null && member.informer().hasSynced();
	}

	@Override
	public String lastSyncResourceVersion() {
		// versions of different lists do not compare; none stands for them all
		return "";
	}

	@Override
	public synchronized void setTransform(TransformFunc transform) {
		this.members.values().forEach((member) -> member.informer().setTransform(transform));
	}

	/**
	 * The informer of one namespace, and whether it was there at the start.
	 */
	record Member<T extends KubernetesObject>(SharedIndexInformer<T> informer, boolean first) {

	}

	private record Registration<T extends KubernetesObject>(ResourceEventHandler<T> handler,
			@Nullable Long resyncPeriod) {

		void addTo(SharedIndexInformer<T> informer) {
			if (this.resyncPeriod != null) {
				informer.addEventHandlerWithResyncPeriod(this.handler, this.resyncPeriod);
			}
			else {
				informer.addEventHandler(this.handler);
			}
		}

	}

	static <T extends KubernetesObject> List<T> concat(Iterable<Member<T>> members,
			Function<Indexer<T>, List<T>> read) {
		List<T> all = new ArrayList<>();
		members.forEach((member) -> all.addAll(read.apply(member.informer().getIndexer())));
		return all;
	}

}
