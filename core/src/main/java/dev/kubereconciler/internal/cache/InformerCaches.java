package dev.kubereconciler.internal.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.CacheTransforms;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.Sleeper;

/**
 * The informer caches of a controller manager, kept apart from the controllers as
 * controller-runtime keeps its cache: it wires one informer per watched or owned type,
 * starts them, waits for them to sync, serves listers over them and stops them. The
 * informers' events reach each controller through its {@link KeySink}.
 */
public final class InformerCaches {

	// a check is a few field reads; a long pause would only delay the start, which waits
	// for the next check after the initial list's last object is stored
	private static final Duration SYNC_POLL = Duration.ofMillis(1);

	private final SharedInformerFactory factory;

	private final boolean ownsFactory;

	private final InformerWiring wiring;

	private final Sleeper clock;

	private final NamespaceChanges namespaceChanges;

	public InformerCaches(ApiClient apiClient, @Nullable SharedInformerFactory factory, CacheTransforms transforms,
			int listPageSize, int watchCacheListMax, Sleeper clock) {
		this(apiClient, factory, transforms, listPageSize, watchCacheListMax, clock, CacheOptions.defaults());
	}

	/**
	 * Create the caches with per-type options: selectors and indexes of the informers.
	 * @param apiClient the client for the API server
	 * @param factory the application's informer factory, or {@code null} for a private
	 * one
	 * @param transforms what the informers change in objects before caching them
	 * @param listPageSize the most objects per list request, or 0 for no limit
	 * @param watchCacheListMax the most objects read whole from the watch cache, or 0
	 * @param clock the clock of the cache sync
	 * @param options the types' own selectors and indexes
	 */
	public InformerCaches(ApiClient apiClient, @Nullable SharedInformerFactory factory, CacheTransforms transforms,
			int listPageSize, int watchCacheListMax, Sleeper clock, CacheOptions options) {
		this.ownsFactory = factory == null;
		this.factory = (factory != null) ? factory : new InformerFactory(apiClient);
		this.wiring = new InformerWiring(apiClient, this.factory, transforms, listPageSize, watchCacheListMax, options);
		this.clock = clock;
		this.namespaceChanges = new NamespaceChanges(this.wiring, clock);
	}

	/**
	 * Back off the informers' lists while the server does not answer, and report it, as
	 * for a member cluster of a fleet; called before {@link #wire}.
	 * @param reachability the cluster's reachability
	 */
	public void reachability(ServerReachability reachability) {
		this.wiring.reachability(reachability);
	}

	/**
	 * Obtain the informers the controllers need and route their events to the
	 * controllers' key sinks.
	 * @param controllers the controllers
	 */
	public void wire(Collection<WatchingController> controllers) {
		this.wiring.wire(new ArrayList<>(controllers));
	}

	/**
	 * Obtain the informers the controllers need in one cluster: those of the controllers
	 * that run there, and those of the watches that map across clusters from there.
	 * @param cluster the cluster's name, empty for the local one
	 * @param controllers the controllers
	 */
	public void wire(String cluster, Collection<WatchingController> controllers) {
		this.wiring.wire(cluster, new ArrayList<>(controllers));
	}

	/**
	 * Return the keys of the primary objects that a wired controller selects in the
	 * cache, read anew on each call: the initial list a controller's queue starts from.
	 * @param definition the controller's definition
	 * @return the cached keys
	 */
	public List<Request> cachedKeys(ControllerDefinition definition) {
		return this.wiring.cachedKeys(definition);
	}

	/**
	 * Return the reconcile key of an object.
	 * @param metadata the object's metadata
	 * @return its key
	 */
	public static Request keyOf(V1ObjectMeta metadata) {
		return InformerWiring.requestFor(metadata);
	}

	/**
	 * Return the informers by model type.
	 * @return the informers
	 */
	public Map<Class<?>, SharedIndexInformer<? extends KubernetesObject>> informers() {
		return this.wiring.informers();
	}

	/**
	 * Return whether the informer of a type drops {@code metadata.managedFields} from
	 * what it caches: it does when this manager made it with the default transforms, not
	 * when it came from a factory of the application's.
	 * @param type the model type
	 * @return whether its cached objects have no managed fields
	 */
	public boolean stripsManagedFields(Class<?> type) {
		return this.wiring.stripsManagedFields(type);
	}

	/**
	 * Return a lister over the informer cache of a watched or owned type, so that
	 * reconcilers read objects without a request to the API server, as
	 * controller-runtime's cached client does.
	 * @param <T> the model type
	 * @param type the model class, watched or owned by one of the controllers
	 * @return the lister
	 * @throws IllegalArgumentException if no controller watches or owns the type
	 */
	@SuppressWarnings("unchecked")
	public <T extends KubernetesObject> Lister<T> lister(Class<T> type) {
		SharedIndexInformer<? extends KubernetesObject> informer = this.wiring.informers().get(type);
		if (informer == null) {
			throw new IllegalArgumentException("No controller watches or owns " + type.getName());
		}
		return new Lister<>((Indexer<T>) informer.getIndexer());
	}

	/**
	 * Return whether every informer has synced its cache.
	 * @return {@code true} once all caches synced
	 */
	public boolean hasSynced() {
		return this.wiring.informers().values().stream().allMatch(SharedIndexInformer::hasSynced);
	}

	/**
	 * Start the informers.
	 */
	public void start() {
		this.factory.startAllRegisteredInformers();
		// the informers of each namespace are no factory's: a factory holds one per type
		namespaced().forEach(SharedIndexInformer::run);
	}

	/**
	 * Wait for the caches each controller needs, within the controller's cache sync
	 * timeout.
	 * @param controllers the controllers
	 * @throws IllegalStateException if a cache does not sync in time
	 */
	public void awaitSync(Collection<ControllerDefinition> controllers) {
		awaitSync(controllers, () -> true);
	}

	/**
	 * Wait for the caches each controller needs, within the controller's cache sync
	 * timeout, unless told to give up first.
	 * @param controllers the controllers
	 * @param keepWaiting whether to go on waiting, asked before each check
	 * @return {@code true} if the caches synced, {@code false} if it gave up
	 * @throws IllegalStateException if a cache does not sync in time
	 */
	public boolean awaitSync(Collection<ControllerDefinition> controllers, BooleanSupplier keepWaiting) {
		for (ControllerDefinition definition : controllers) {
			long deadline = this.clock.read() + definition.cacheSyncTimeout().toNanos();
			List<SharedIndexInformer<? extends KubernetesObject>> needed = new ArrayList<>();
			needed.add(this.wiring.informers().get(definition.watches()));
			definition.owns().forEach((type) -> needed.add(this.wiring.informers().get(type)));
			while (!needed.stream().allMatch(SharedIndexInformer::hasSynced)) {
				if (!keepWaiting.getAsBoolean()) {
					return false;
				}
				if (this.clock.read() - deadline >= 0) {
					throw new IllegalStateException("Controller '" + definition.name() + "': the cache of "
							+ ResourceType.of(definition.watches()).displayName() + " did not sync within "
							+ definition.cacheSyncTimeout()
							+ "; check that the API server is reachable and that the resource is served "
							+ "(kube-reconciler.controllers." + definition.name() + ".cache-sync-timeout)");
				}
				try {
					this.clock.sleep(SYNC_POLL.toNanos());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while waiting for caches to sync", ex);
				}
			}
		}
		return true;
	}

	/**
	 * Stop the informers: all of them when the factory is private, otherwise only those
	 * the controllers use, so that a shared factory keeps serving others.
	 */
	public void stop() {
		if (this.ownsFactory) {
			this.factory.stopAllRegisteredInformers(true);
			namespaced().forEach(SharedIndexInformer::stop);
		}
		else {
			this.wiring.informers().values().forEach(SharedIndexInformer::stop);
		}
	}

	// namespaces: per-namespace informers and changes of a controller's namespaces

	/**
	 * Change the namespaces of a wired controller while it runs: start the informers of
	 * the namespaces it adds, stop those of the namespaces no controller needs any more.
	 * @param controller the controller's name
	 * @param namespaces the namespaces from now on; empty for all of them, which only a
	 * controller whose types have a cluster-wide informer can take
	 * @return completes once every added namespace synced and its keys were enqueued
	 * @throws IllegalArgumentException naming the controller and the fix, for a blank
	 * namespace or an empty set the informers cannot serve
	 */
	public CompletableFuture<Void> changeNamespaces(String controller, Set<String> namespaces) {
		return this.namespaceChanges.change(controller, namespaces);
	}

	/**
	 * Return the namespaces a wired controller reconciles now.
	 * @param controller the controller's name
	 * @return the namespaces, empty for all of them
	 */
	public Set<String> namespaces(String controller) {
		WatchingController watching = this.wiring.controllers().get(controller);
		return (watching != null) ? watching.scope().get() : Set.of();
	}

	private List<NamespacedInformers<?>> namespaced() {
		List<NamespacedInformers<?>> namespaced = new ArrayList<>();
		this.wiring.informers().values().forEach((informer) -> {
			if (informer instanceof NamespacedInformers<?> perNamespace) {
				namespaced.add(perNamespace);
			}
		});
		return namespaced;
	}

}
