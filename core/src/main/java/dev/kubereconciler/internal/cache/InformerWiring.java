package dev.kubereconciler.internal.cache;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.TransformFunc;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.CacheCompactor;
import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.CacheTransforms;
import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.dependent.DependentLabels;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.reconcile.Request;

/**
 * Obtains one informer per watched type from a {@link SharedInformerFactory} and routes
 * its events to the controllers that watch or own that type.
 *
 * <p>
 * When every controller using the type names its namespaces, the type gets one informer
 * per namespace of theirs ({@link NamespacedInformers}); when one of them watches every
 * namespace, one informer lists them all. An informer is scoped to a label selector only
 * when every controller using the type watches it with that one selector. Each controller
 * filters by its own namespaces, read from its {@link NamespaceScope}, and selector, so
 * that several controllers can share one informer.
 */
final class InformerWiring {

	private final ApiClient apiClient;

	private final SharedInformerFactory factory;

	private final Map<Class<?>, SharedIndexInformer<? extends KubernetesObject>> informers = new java.util.LinkedHashMap<>();

	// types whose informers the API server filters by their controllers' one
	// label selector
	private final Set<Class<?>> serverSelected = new java.util.HashSet<>();

	// types whose informer is the application factory's, scoped to one namespace
	private final Set<Class<?>> factoryScoped = new java.util.HashSet<>();

	private final CacheTransforms transforms;

	// types whose informers this wiring made, dropping managed fields
	private final Set<Class<?>> stripped = new java.util.HashSet<>();

	private final CacheCompactor compactor = new CacheCompactor();

	private final int listPageSize;

	private final int watchCacheListMax;

	// cache options: a type's own selectors, its indexes, mappers by index
	private final CacheOptionsWiring options;

	// namespaces: the wired controllers by name, and the controllers using each type
	private final Map<String, WatchingController> controllers = new java.util.LinkedHashMap<>();

	private final Map<Class<?>, List<WatchingController>> users = new java.util.LinkedHashMap<>();

	// a member cluster's: its informers back off while its server does not answer
	private @Nullable ServerReachability reachability;

	InformerWiring(ApiClient apiClient, SharedInformerFactory factory, CacheTransforms transforms, int listPageSize,
			int watchCacheListMax, CacheOptions options) {
		this.apiClient = apiClient;
		this.factory = factory;
		this.transforms = transforms;
		this.listPageSize = listPageSize;
		this.watchCacheListMax = watchCacheListMax;
		this.options = new CacheOptionsWiring(options);
	}

	void wire(List<WatchingController> controllers) {
		wire("", controllers);
	}

	/**
	 * Wire the controllers in one cluster: those that run there get the informers of
	 * their types, and each gets the informers of its watches that map across clusters
	 * from there.
	 * @param cluster the cluster's name, empty for the local one
	 * @param controllers the controllers
	 */
	void wire(String cluster, List<WatchingController> controllers) {
		Map<Class<? extends KubernetesObject>, List<WatchingController>> users = new java.util.LinkedHashMap<>();
		for (WatchingController controller : controllers) {
			ControllerDefinition definition = controller.definition();
			if (runsIn(cluster, definition)) {
				this.controllers.put(controller.name(), controller);
				users.computeIfAbsent(definition.watches(), (key) -> new ArrayList<>()).add(controller);
				for (Class<? extends KubernetesObject> owned : definition.owns()) {
					users.computeIfAbsent(owned, (key) -> new ArrayList<>()).add(controller);
				}
			}
			for (MappedWatch<?> mapped : mappedIn(cluster, definition)) {
				users.computeIfAbsent(mapped.type(), (key) -> new ArrayList<>()).add(controller);
			}
		}
		users.forEach((type, typeUsers) -> this.informers.put(type, informerFor(type, typeUsers)));
		this.informers.forEach(this.options::addIndexes);
		this.users.putAll(users);
		for (WatchingController controller : controllers) {
			ControllerDefinition definition = controller.definition();
			if (runsIn(cluster, definition)) {
				wireHandlers(controller);
			}
			for (MappedWatch<?> mapped : mappedIn(cluster, definition)) {
				if (mapped.isAcross()) {
					CacheView.addHandler(informer(mapped.type()), new MappedWatchHandler(controller, mapped));
				}
			}
		}
	}

	private void wireHandlers(WatchingController controller) {
		ControllerDefinition definition = controller.definition();
		SharedIndexInformer<? extends KubernetesObject> primary = informer(definition.watches());
		CacheView.addHandler(primary, new PrimaryHandler(controller, this.serverSelected.contains(definition.watches()),
				new EventPriority(primary::hasSynced, Clock.systemUTC())));
		for (Class<? extends KubernetesObject> owned : definition.owns()) {
			SharedIndexInformer<? extends KubernetesObject> ownedInformer = informer(owned);
			CacheView.addHandler(ownedInformer,
					new OwnerHandler(controller, new EventPriority(ownedInformer::hasSynced, Clock.systemUTC())));
		}
		for (MappedWatch<?> mapped : definition.mappedWatches()) {
			if (!mapped.isAcross()) {
				CacheView.addHandler(informer(mapped.type()),
						new MappedWatchHandler(controller, this.options.mapper(mapped, definition, primary)));
			}
		}
		// a dependent that no owner reference reaches names its primary in an
		// annotation, so that its changes reconcile the primary all the same
		for (Class<? extends KubernetesObject> type : definition.reconciler().dependents().types()) {
			CacheView.addHandler(informer(type),
					new MappedWatchHandler(controller, new MappedWatch<>(type, DependentLabels::owner)));
		}
	}

	// clusters (issue 40): a controller runs in the local cluster or the fleet's, and a
	// watch that maps across clusters runs in the one cluster it names
	private static boolean runsIn(String cluster, ControllerDefinition definition) {
		return cluster.isEmpty() ? definition.clusters().includesLocal() : definition.clusters().includesFleet();
	}

	private static List<MappedWatch<?>> mappedIn(String cluster, ControllerDefinition definition) {
		boolean runs = runsIn(cluster, definition);
		return definition.mappedWatches()
			.stream()
			.filter((mapped) -> mapped.isAcross() ? mapped.cluster().is(cluster) : runs)
			.toList();
	}

	/**
	 * Return the keys of the primary objects a controller selects in its informer's
	 * cache, read anew on each call.
	 * @param definition the controller's definition, wired before
	 * @return the cached keys
	 */
	List<Request> cachedKeys(ControllerDefinition definition) {
		return cachedKeys(informer(definition.watches()),
				Objects.requireNonNull(this.controllers.get(definition.name())));
	}

	boolean isFactoryScoped(Class<?> type) {
		return this.factoryScoped.contains(type);
	}

	Map<Class<?>, SharedIndexInformer<? extends KubernetesObject>> informers() {
		return this.informers;
	}

	Map<String, WatchingController> controllers() {
		return this.controllers;
	}

	List<WatchingController> users(Class<?> type) {
		return this.users.getOrDefault(type, List.of());
	}

	boolean stripsManagedFields(Class<?> type) {
		return this.stripped.contains(type);
	}

	// wire() makes an informer for every type a controller uses before it looks them up
	private SharedIndexInformer<? extends KubernetesObject> informer(Class<?> type) {
		return Objects.requireNonNull(this.informers.get(type));
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private SharedIndexInformer<? extends KubernetesObject> informerFor(Class<? extends KubernetesObject> type,
			List<WatchingController> typeUsers) {
		SharedIndexInformer existing = this.factory.getExistingSharedIndexInformer((Class) type);
		if (existing != null) {
			return existing;
		}
		ResourceType resourceType = ResourceType.of(type);
		Set<String> namespaces = new LinkedHashSet<>();
		Set<String> selectors = new LinkedHashSet<>();
		boolean allNamespaces = false;
		boolean owned = false;
		long resyncMillis = Long.MAX_VALUE;
		for (WatchingController controller : typeUsers) {
			ControllerDefinition definition = controller.definition();
			allNamespaces |= definition.namespaces().isEmpty();
			namespaces.addAll(definition.namespaces());
			owned |= !definition.watches().equals(type);
			selectors.add(definition.labelSelector().toString());
			Duration resync = definition.resyncPeriod();
			resyncMillis = Math.min(resyncMillis, resync.isZero() ? Long.MAX_VALUE : resync.toMillis());
		}
		long resync = (resyncMillis == Long.MAX_VALUE) ? 0 : resyncMillis;
		GenericKubernetesApi api = new GenericKubernetesApi(resourceType.apiType(),
				(Class<? extends KubernetesListObject>) resourceType.listType(), resourceType.group(),
				resourceType.version(), resourceType.plural(), this.apiClient);
		// The server can only filter for one selector, and owned objects are not selected
		// by their owners' selector; otherwise each controller filters on its own.
		String selector = (!owned && selectors.size() == 1) ? selectors.iterator().next() : "";
		if (!selector.isEmpty()) {
			this.serverSelected.add(type);
		}
		String serverSelector = this.options.labelSelector(type, selector);
		// the lister-watcher transforms, page by page, rather than the informer, which
		// would transform only what it takes from its queue of every decoded object
		TransformFunc transform = this.transforms.forType(type, this.compactor);
		if (this.transforms.isStripManagedFields()) {
			this.stripped.add(type);
		}
		String fieldSelector = this.options.fieldSelector(type);
		// an application's factory holds one informer per type, which it hands out: one
		// namespace keeps the factory's informer, scoped to it, as before per-namespace
		// informers, and cannot change at run time
		String factoryNamespace = (!allNamespaces && namespaces.size() == 1
				&& !(this.factory instanceof InformerFactory)) ? namespaces.iterator().next() : null;
		if (factoryNamespace != null) {
			this.factoryScoped.add(type);
		}
		else if (!allNamespaces) {
			// one informer per namespace, as controller-runtime's multi-namespace cache:
			// namespaced Roles can grant its reads, and namespaces can change at run time
			return new NamespacedInformers<>(namespaces,
					(inNamespace) -> InformerFactory.namespaceInformer(
							retrying(new ScopedListerWatcher(api, inNamespace, serverSelector,
									new ListCall(this.apiClient, resourceType), this.listPageSize,
									this.watchCacheListMax, transform)
								.fieldSelector(fieldSelector)),
							(Class) type, resync, new RefusedReads(resourceType, inNamespace)));
		}
		ListerWatcher listerWatcher = retrying(new ScopedListerWatcher(api, factoryNamespace, serverSelector,
				new ListCall(this.apiClient, resourceType), this.listPageSize, this.watchCacheListMax, transform)
			.fieldSelector(fieldSelector));
		// an application's factory makes informers with client-java's store
		SharedIndexInformer informer = (this.factory instanceof InformerFactory ours)
				? ours.informerFor(listerWatcher, (Class) type, resync)
				: this.factory.sharedIndexInformerFor(listerWatcher, (Class) type, resync);
		return informer;
	}

	void reachability(ServerReachability reachability) {
		this.reachability = reachability;
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private ListerWatcher retrying(ScopedListerWatcher listerWatcher) {
		ServerReachability reachability = this.reachability;
		return (reachability != null) ? reachability.retrying(listerWatcher) : listerWatcher;
	}

	static List<Request> cachedKeys(SharedIndexInformer<? extends KubernetesObject> informer,
			WatchingController controller) {
		List<Request> keys = new ArrayList<>();
		for (KubernetesObject object : informer.getIndexer().list()) {
			if (selects(controller, object)) {
				keys.add(requestFor(object.getMetadata()));
			}
		}
		return keys;
	}

	static boolean inScope(WatchingController controller, V1ObjectMeta metadata) {
		return controller.scope().contains(namespaceOf(metadata));
	}

	static boolean selects(WatchingController controller, KubernetesObject object) {
		V1ObjectMeta metadata = object.getMetadata();
		return metadata != null && inScope(controller, metadata)
				&& controller.definition().labelSelector().matches(metadata.getLabels());
	}

	static Request requestFor(V1ObjectMeta metadata) {
		return new Request(namespaceOf(metadata), metadata.getName());
	}

	private static String namespaceOf(V1ObjectMeta metadata) {
		return (metadata.getNamespace() != null) ? metadata.getNamespace() : "";
	}

	/**
	 * Enqueues the key of every primary object the controller selects, without delay.
	 */
	private static final class PrimaryHandler implements ResourceEventHandler<KubernetesObject> {

		private final WatchingController controller;

		private final boolean serverSelected;

		private final EventPriority priority;

		private final UpdateFilterChain filters;

		PrimaryHandler(WatchingController controller, boolean serverSelected, EventPriority priority) {
			this.controller = controller;
			this.serverSelected = serverSelected;
			this.priority = priority;
			this.filters = new UpdateFilterChain(controller.name(), controller.definition().updateFilters(),
					controller.listener());
		}

		@Override
		public void onAdd(KubernetesObject object) {
			enqueue(object, this.priority.ofAdd(object));
		}

		@Override
		public void onUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
			// filters judge updates within the selection; entering or leaving it acts as
			// a create or delete, which always pass
			if (newObject != null && selects(this.controller, newObject) && oldObject != null
					&& selects(this.controller, oldObject) && !this.filters.passes(oldObject, newObject)) {
				return;
			}
			if (!enqueue(newObject, EventPriority.ofUpdate(oldObject, newObject)) && oldObject != null
					&& selects(this.controller, oldObject)) {
				// the object left the selector: reconcile once more so the controller can
				// clean up
				this.controller.keys().add(requestFor(oldObject.getMetadata()));
			}
		}

		@Override
		public void onDelete(KubernetesObject object, boolean finalStateUnknown) {
			// A server-side selector turns "no longer matches" into a delete whose
			// object carries the new labels: it was selected until now, so reconcile it
			// once more.
			if (!enqueue(object, Priorities.NORMAL) && this.serverSelected && object != null
					&& object.getMetadata() != null && inScope(this.controller, object.getMetadata())) {
				this.controller.keys().add(requestFor(object.getMetadata()));
			}
		}

		private boolean enqueue(KubernetesObject object, int priority) {
			if (object != null && selects(this.controller, object)) {
				this.controller.keys().add(requestFor(object.getMetadata()), priority);
				return true;
			}
			return false;
		}

	}

	/**
	 * Enqueues the controlling owner of an owned object, when the owner is of the
	 * controller's primary kind.
	 */
	private static final class OwnerHandler implements ResourceEventHandler<KubernetesObject> {

		private final WatchingController controller;

		private final ResourceType primary;

		private final EventPriority priority;

		OwnerHandler(WatchingController controller, EventPriority priority) {
			this.controller = controller;
			this.primary = ResourceType.of(controller.definition().watches());
			this.priority = priority;
		}

		@Override
		public void onAdd(KubernetesObject object) {
			enqueueOwner(object, this.priority.ofAdd(object));
		}

		@Override
		public void onUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
			int priority = EventPriority.ofUpdate(oldObject, newObject);
			enqueueOwner(oldObject, priority);
			enqueueOwner(newObject, priority);
		}

		@Override
		public void onDelete(KubernetesObject object, boolean finalStateUnknown) {
			enqueueOwner(object, Priorities.NORMAL);
		}

		private void enqueueOwner(KubernetesObject object, int priority) {
			if (object == null || object.getMetadata() == null || object.getMetadata().getOwnerReferences() == null) {
				return;
			}
			ResourceType primary = this.primary;
			V1ObjectMeta metadata = object.getMetadata();
			for (V1OwnerReference owner : metadata.getOwnerReferences()) {
				if (Boolean.TRUE.equals(owner.getController()) && primary.kind().equals(owner.getKind())
						&& sameGroup(primary, owner.getApiVersion()) && inScope(this.controller, metadata)) {
					this.controller.keys().add(new Request(namespaceOf(metadata), owner.getName()), priority);
				}
			}
		}

		private static boolean sameGroup(ResourceType primary, String apiVersion) {
			if (apiVersion == null) {
				return false;
			}
			int slash = apiVersion.indexOf('/');
			String group = (slash < 0) ? "" : apiVersion.substring(0, slash);
			return group.equals((primary.group() != null) ? primary.group() : "");
		}

	}

}
