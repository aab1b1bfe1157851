package dev.kubereconciler.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cluster.ClusterAware;
import dev.kubereconciler.cluster.ClusterProvider;
import dev.kubereconciler.cluster.ClusterStatus;
import dev.kubereconciler.cluster.WatchedCluster;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.internal.cache.InformerCaches;
import dev.kubereconciler.internal.cache.InformerFactory;
import dev.kubereconciler.internal.cache.ModelAdapters;
import dev.kubereconciler.internal.cache.ScopedListerWatcher;
import dev.kubereconciler.internal.cache.WatchingController;
import dev.kubereconciler.internal.context.ReconcilerBinder;
import dev.kubereconciler.internal.context.ServedResources;
import dev.kubereconciler.internal.controller.ShardDispatcher;
import dev.kubereconciler.internal.controller.StandbyCaches;
import dev.kubereconciler.internal.controller.Watchdog;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.internal.dependent.DependentsReconciler;
import dev.kubereconciler.leaderelection.LeaderElectionRunner;
import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.ShardCoordinator;
import dev.kubereconciler.time.DelayScheduler;
import dev.kubereconciler.time.ManagedDelayScheduler;

/**
 * Runs a set of controllers: starts the informers, waits for their caches to sync, then
 * starts the controllers' workers, directly or once this instance is elected leader. It
 * is the one way to build a {@link Controller}.
 *
 * <p>
 * {@link #stop()} stops taking new work, lets in-flight reconciles finish for up to the
 * shutdown timeout, then stops the informers.
 */
public final class ControllerManager implements ControllerRegistry {

	/**
	 * How long a reconcile that ignores the interrupt after its timeout may go on before
	 * its key is retried and its worker replaced, by default.
	 */
	public static final Duration DEFAULT_ABANDON_GRACE = Duration.ofSeconds(5);

	/** How long {@link #stop()} lets in-flight reconciles finish, by default: 30 s. */
	public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

	/**
	 * The most objects an informer asks for in one list request, by default: 500, as
	 * client-go's reflector pages.
	 */
	public static final int DEFAULT_LIST_PAGE_SIZE = ScopedListerWatcher.DEFAULT_PAGE_SIZE;

	/**
	 * The most objects an informer reads whole from the API server's watch cache, by
	 * default: 10,000; larger lists come in pages.
	 */
	public static final int DEFAULT_WATCH_CACHE_LIST_MAX = ScopedListerWatcher.DEFAULT_WATCH_CACHE_LIST_MAX;

	private static final Logger logger = LoggerFactory.getLogger(ControllerManager.class);

	private final Map<String, WorkQueueController> controllers;

	private final InformerCaches caches;

	private final ManagerGate gate;

	private final @Nullable LeaderElectionSettings leaderElection;

	private final ApiClient apiClient;

	private final Duration shutdownTimeout;

	private final int listPageSize;

	private final int watchCacheListMax;

	private final DelayScheduler clock;

	private final ThreadFactory threadFactory;

	private final Watchdog watchdog;

	private final Object lifecycleMonitor = new Object();

	private volatile boolean running;

	private volatile boolean leader;

	private final StandbyCaches standbyCaches;

	private @Nullable LeaderElectionRunner election;

	private final @Nullable ShardDispatcher sharding;

	private final CacheOptions cacheOptions;

	private final @Nullable FleetClusters fleet;

	ControllerManager(ManagerBuilder builder) {
		this.apiClient = builder.apiClient;
		ManagerGate gate = (builder.gate != null) ? builder.gate : ManagerGate.unlimited();
		this.gate = (builder.gateAcrossClusters != null) ? gate.acrossClusters(builder.gateAcrossClusters) : gate;
		this.leaderElection = builder.leaderElection;
		this.shutdownTimeout = builder.shutdownTimeout;
		this.clock = (builder.clock != null) ? builder.clock : new ManagedDelayScheduler(builder.threadFactory);
		this.threadFactory = builder.threadFactory;
		ReconcilerBinder binder = new ReconcilerBinder(builder.apiClient, builder.eventRecorders, this.clock,
				builder.listener, DependentsReconciler::create);
		CacheOptions cacheOptions = CacheOptionsAssembly.merge(builder.cacheOptions, builder.definitions);
		this.cacheOptions = cacheOptions;
		FleetClusters fleet = (!builder.clusterProviders.isEmpty()
				|| builder.definitions.stream().anyMatch((definition) -> definition.clusters().includesFleet()))
						? new FleetClusters(builder.clusterProviders,
								new EngagedCluster.Settings(builder, this.clock, cacheOptions, builder.clusterEvents,
										builder.clusterRetryBackoff, builder.clusterRetryBackoffCap))
						: null;
		this.fleet = fleet;
		this.controllers = Collections.unmodifiableMap(ControllerAssembly.create(builder,
				(definition) -> ClusterRouting.of(definition.name(),
						definition.clusters().includesLocal() ? binder.bind(definition) : null,
						definition.clusters().includesFleet() ? fleet : null),
				this.gate, this.clock, this.threadFactory));
		if (fleet != null) {
			fleet.controllers(this.controllers.values()
				.stream()
				.filter((controller) -> controller.definition().clusters().includesFleet())
				.toList());
		}
		this.listPageSize = builder.listPageSize;
		this.watchCacheListMax = builder.watchCacheListMax;
		this.caches = new InformerCaches(builder.apiClient, builder.informerFactory, builder.cacheTransforms,
				builder.listPageSize, builder.watchCacheListMax, this.clock, cacheOptions);
		this.caches
			.wire("",
					wiredLocally(this.controllers.values())
						.map((controller) -> new WatchingController(controller.definition(), controller,
								builder.listener, controller.scope()))
						.toList());
		this.controllers.values()
			.forEach((controller) -> controller
				.namespaceChanges((namespaces) -> this.caches.changeNamespaces(controller.name(), namespaces)));
		this.controllers.values()
			.forEach((controller) -> controller.initialKeys(() -> cachedKeys(controller.definition())));
		local(this.controllers.values()).forEach(this::attachSources);
		this.standbyCaches = new StandbyCaches(this.caches, this.lifecycleMonitor, () -> this.running);
		binder.attach(this.caches.informers(), this.caches::stripsManagedFields, cacheOptions);
		if (builder.sharding != null && builder.leaderElection != null) {
			throw new IllegalArgumentException("Sharding and leader election cannot both be enabled");
		}
		this.sharding = (builder.sharding != null) ? ShardDispatcher.create(builder.apiClient, builder.sharding,
				builder.clusterRate, this.controllers.values(), this.gate, this.clock, this.threadFactory,
				builder.shutdownTimeout, builder.abandonGrace) : null;
		this.watchdog = new Watchdog(this.controllers.values(), this.clock, builder.watchdogPeriod, this.threadFactory);
	}

	/**
	 * Create the informer factory a manager makes when it is given none, for an
	 * application that shares one factory between its managers and code of its own. Its
	 * informers, when a manager makes them, store their objects by namespace and then by
	 * name, without the {@code namespace/name} key and namespace index entry that
	 * client-java's store holds for every object; any other factory's informers keep
	 * client-java's store.
	 * @param apiClient the client for the API server, with no read timeout
	 * @return the factory
	 */
	public static SharedInformerFactory informerFactory(ApiClient apiClient) {
		ModelAdapters.install();
		return new InformerFactory(apiClient);
	}

	/**
	 * Start building a manager.
	 * @param apiClient the client for the API server
	 * @return a builder
	 */
	public static ManagerBuilder builder(ApiClient apiClient) {
		// before the first read: client-java's JSON would load every model's class on it
		ModelAdapters.install();
		return new ManagerBuilder(apiClient);
	}

	@Override
	public Map<String, Controller> controllers() {
		return Collections.unmodifiableMap(this.controllers);
	}

	@Override
	public @Nullable Controller controller(String name) {
		return this.controllers.get(name);
	}

	@Override
	public ManagerGate gate() {
		return this.gate;
	}

	public boolean isRunning() {
		return this.running;
	}

	@Override
	public boolean isLeader() {
		return this.leader;
	}

	public boolean isLeaderElectionEnabled() {
		return this.leaderElection != null;
	}

	/**
	 * Return the coordinator of this replica's partitions.
	 * @return the coordinator, or {@code null} when sharding is off
	 */
	public @Nullable ShardCoordinator shardCoordinator() {
		return (this.sharding != null) ? this.sharding.coordinator() : null;
	}

	/**
	 * Return how many cached keys of each controller fall in each partition this replica
	 * holds.
	 * @return the counts by partition, then by controller name; empty when sharding is
	 * off
	 */
	public Map<Integer, Map<String, Integer>> shardKeyCounts() {
		return (this.sharding != null) ? this.sharding.keyCounts() : Map.of();
	}

	/**
	 * Return the leader election settings.
	 * @return the settings, or {@code null} when every instance runs the controllers
	 */
	public @Nullable LeaderElectionSettings leaderElection() {
		return this.leaderElection;
	}

	/**
	 * Return how long {@link #stop()} lets in-flight reconciles finish.
	 * @return the shutdown timeout
	 */
	public Duration shutdownTimeout() {
		return this.shutdownTimeout;
	}

	/**
	 * Return the most objects an informer asks for in one list request.
	 * @return the page size, or 0 when informers list everything in one request
	 */
	public int listPageSize() {
		return this.listPageSize;
	}

	/**
	 * Return the most objects an informer reads whole from the watch cache.
	 * @return the most objects, or 0 when every list comes in pages
	 */
	public int watchCacheListMax() {
		return this.watchCacheListMax;
	}

	/**
	 * Return how each type is cached: the manager's cache options with the indexes its
	 * controllers declare.
	 * @return the cache options
	 */
	public CacheOptions cacheOptions() {
		return this.cacheOptions;
	}

	// the controllers of the local cluster: the others have no informers of its
	private List<ControllerDefinition> definitions() {
		return local(this.controllers.values()).map(WorkQueueController::definition).toList();
	}

	@Override
	public <T extends KubernetesObject> Lister<T> lister(Class<T> type) {
		return this.caches.lister(type);
	}

	@Override
	public boolean hasSynced() {
		return this.caches.hasSynced();
	}

	/**
	 * Return whether the informers run. They start with the manager, except in a cold
	 * standby (leader election without warmup), where they start only once this instance
	 * first wins the Lease, and then keep running until the manager stops.
	 * @return {@code true} once the informers were started
	 */
	public boolean cachesStarted() {
		return this.standbyCaches.started();
	}

	/**
	 * Start the informers, wait for their caches, then start the controllers (or the
	 * leader election that starts them). In a cold standby the informers start only once
	 * this instance wins the Lease.
	 * @throws IllegalStateException if a controller writes the status of a type whose
	 * {@code /status} subresource the API server does not serve, or if a cache does not
	 * sync within its controller's cache sync timeout
	 */
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.running) {
				return;
			}
			// before anything starts: a type that is not served never syncs, and a status
			// write without the subresource fails on every reconcile with a 404 that
			// names the object as not found
			ServedResources.verify(this.apiClient, definitions());
			this.running = true;
			// before anything runs that a failed start would stop: client-java logs the
			// interrupts of a normal stop at ERROR
			InterruptLogs.quiet();
			if (this.clock instanceof ManagedDelayScheduler managed) {
				managed.start();
			}
			if (this.leaderElection == null || this.leaderElection.warmup()) {
				this.standbyCaches.start();
				try {
					this.caches.awaitSync(definitions());
				}
				catch (RuntimeException ex) {
					this.controllers.values().forEach((controller) -> controller.fail(ex));
					this.standbyCaches.stop();
					this.running = false;
					throw ex;
				}
			}
			else {
				logger.info("Cold standby: the informers start once this instance wins the Lease {}/{}",
						this.leaderElection.leaseNamespace(), this.leaderElection.leaseName());
			}
			this.watchdog.start();
			if (this.fleet != null) {
				this.fleet.start();
			}
			if (this.leaderElection == null) {
				this.leader = true;
				this.controllers.values().forEach(WorkQueueController::start);
				if (this.sharding != null) {
					this.sharding.start();
				}
			}
			else {
				this.controllers.values().forEach(WorkQueueController::waitForLeadership);
				this.election = new LeaderElectionRunner(this.apiClient, this.leaderElection, this.threadFactory,
						(termLasts) -> this.standbyCaches.prepareLeading(this.controllers.values(), termLasts),
						this::startLeading, this::stopLeading);
				this.election.start();
			}
		}
	}

	private void startLeading() {
		logger.info("Became leader; starting {} controller(s)", this.controllers.size());
		this.leader = true;
		this.controllers.values().forEach(WorkQueueController::takeOver);
	}

	private void stopLeading() {
		if (this.leader) {
			logger.warn("Lost leadership; stopping controllers");
		}
		this.leader = false;
		this.controllers.values().forEach((controller) -> {
			controller.stop(Duration.ZERO);
			if (this.running) {
				controller.waitForLeadership();
			}
		});
	}

	/**
	 * Stop the controllers, waiting up to the shutdown timeout for in-flight reconciles,
	 * then the informers.
	 */
	public void stop() {
		synchronized (this.lifecycleMonitor) {
			if (!this.running) {
				return;
			}
			this.running = false;
			// again, in case the logging system was reset since the start
			InterruptLogs.quiet();
			long deadline = this.clock.read() + this.shutdownTimeout.toNanos();
			for (WorkQueueController controller : this.controllers.values()) {
				long remaining = Math.max(0, deadline - this.clock.read());
				controller.stop(Duration.ofNanos(remaining));
			}
			if (this.sharding != null) {
				this.sharding.stop();
			}
			if (this.election != null) {
				this.election.stop();
				this.election = null;
			}
			this.leader = false;
			if (this.fleet != null) {
				this.fleet.stop();
			}
			this.watchdog.stop();
			this.standbyCaches.stop();
			if (this.clock instanceof ManagedDelayScheduler managed) {
				managed.stop();
			}
		}
	}

	private void attachSources(WorkQueueController controller) {
		ControllerDefinition definition = controller.definition();
		if (definition.sources().isEmpty()) {
			return;
		}
		Lister<? extends KubernetesObject> lister = this.caches.lister(definition.watches());
		controller.sourceCache(() -> this.caches.cachedKeys(definition), (request) -> request.namespace().isEmpty()
				? lister.get(request.name()) : lister.namespace(request.namespace()).get(request.name()));
	}

	// clusters (issue 40): the fleet's engaged clusters beside the local one

	private static Stream<WorkQueueController> local(Collection<WorkQueueController> controllers) {
		return controllers.stream().filter((controller) -> controller.definition().clusters().includesLocal());
	}

	// a fleet controller's watches of the local cluster (the hub) map across to its
	// members
	private static Stream<WorkQueueController> wiredLocally(Collection<WorkQueueController> controllers) {
		return controllers.stream()
			.filter((controller) -> controller.definition().clusters().includesLocal() || controller.definition()
				.mappedWatches()
				.stream()
				.anyMatch((mapped) -> mapped.cluster().equals(WatchedCluster.local())));
	}

	private List<Request> cachedKeys(ControllerDefinition definition) {
		List<Request> keys = new ArrayList<>();
		if (definition.clusters().includesLocal()) {
			keys.addAll(this.caches.cachedKeys(definition));
		}
		if (this.fleet != null && definition.clusters().includesFleet()) {
			keys.addAll(this.fleet.cachedKeys(definition));
		}
		return keys;
	}

	/**
	 * Return whether this manager has a fleet: a controller runs on it or a cluster
	 * provider was given.
	 * @return whether {@link #fleet()} may be called
	 */
	public boolean hasFleet() {
		return this.fleet != null;
	}

	/**
	 * Return what engages and disengages clusters by hand, beside the cluster providers,
	 * for the controllers whose scope includes the fleet.
	 * @return the manager's cluster side
	 * @throws IllegalStateException if no controller runs on the fleet and no cluster
	 * provider is set
	 */
	public ClusterAware fleet() {
		if (this.fleet == null) {
			throw new IllegalStateException("No controller runs on the fleet: set clusters(ClusterScope.FLEET) or "
					+ "clusters(ClusterScope.BOTH) on a controller definition, or add a cluster provider");
		}
		return this.fleet;
	}

	/**
	 * Return the engaged clusters and where each stands, by name.
	 * @return the clusters; empty when none is engaged
	 */
	public List<ClusterStatus> clusters() {
		return (this.fleet != null) ? this.fleet.statuses() : List.of();
	}

	/**
	 * Return the cluster providers, from which the RBAC rules of the local cluster take
	 * the reads the providers make there.
	 * @return the providers, in the order they were added; empty when none is set
	 */
	public List<ClusterProvider> clusterProviders() {
		return (this.fleet != null) ? this.fleet.providers() : List.of();
	}

	/**
	 * Return the informer caches of an engaged cluster.
	 * @param cluster the cluster's name
	 * @return its caches, or {@code null} when it is not engaged
	 */
	@Nullable InformerCaches clusterCaches(String cluster) {
		return (this.fleet != null) ? this.fleet.caches(cluster) : null;
	}

}
