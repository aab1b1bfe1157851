package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.manager.ControllerManager;

/**
 * Configuration properties for kube-reconciler.
 */
@ConfigurationProperties("kube-reconciler")
public class KubeReconcilerProperties {

	/**
	 * Whether to run the controllers of @Reconciler methods and ControllerDefinition
	 * beans.
	 */
	private boolean enabled = true;

	/**
	 * Whether to start the controllers when the application context refreshes.
	 */
	private boolean autoStartup = true;

	/**
	 * How long in-flight reconciles may take to finish on shutdown before they are
	 * interrupted.
	 */
	private Duration shutdownTimeout = ControllerManager.DEFAULT_SHUTDOWN_TIMEOUT;

	/**
	 * Settings that apply to every controller unless overridden under controllers.<name>.
	 */
	private final Defaults defaults = new Defaults();

	/**
	 * Per-controller settings, by controller name; unset fields inherit from defaults.
	 */
	private final Map<String, ControllerProperties> controllers = new LinkedHashMap<>();

	/**
	 * The manager-level settings shared by every controller.
	 */
	private final Manager manager = new Manager();

	/**
	 * Leader election through a coordination.k8s.io/v1 Lease.
	 */
	@NestedConfigurationProperty
	private final LeaderElectionProperties leaderElection = new LeaderElectionProperties();

	/**
	 * Sharding of the keys across replicas through coordination.k8s.io/v1 Leases.
	 */
	@NestedConfigurationProperty
	private final ShardingProperties sharding = new ShardingProperties();

	/**
	 * Micrometer metrics.
	 */
	private final Metrics metrics = new Metrics();

	/**
	 * What the informers change in objects before caching them.
	 */
	private final Cache cache = new Cache();

	/**
	 * CustomResourceDefinitions applied at startup.
	 */
	private final Crds crds = new Crds();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	public void setAutoStartup(boolean autoStartup) {
		this.autoStartup = autoStartup;
	}

	public Duration getShutdownTimeout() {
		return this.shutdownTimeout;
	}

	public void setShutdownTimeout(Duration shutdownTimeout) {
		this.shutdownTimeout = shutdownTimeout;
	}

	public Defaults getDefaults() {
		return this.defaults;
	}

	public Map<String, ControllerProperties> getControllers() {
		return this.controllers;
	}

	public Manager getManager() {
		return this.manager;
	}

	public LeaderElectionProperties getLeaderElection() {
		return this.leaderElection;
	}

	public ShardingProperties getSharding() {
		return this.sharding;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Crds getCrds() {
		return this.crds;
	}

	public Cache getCache() {
		return this.cache;
	}

	/**
	 * Settings that apply to every controller.
	 */
	public static class Defaults {

		/**
		 * Number of workers reconciling in parallel, per controller.
		 */
		private int maxConcurrentReconciles = 1;

		/**
		 * How long one reconcile may run before it is interrupted and retried; 0 for no
		 * timeout.
		 */
		private Duration reconcileTimeout = ControllerDefinition.DEFAULT_RECONCILE_TIMEOUT;

		/**
		 * How long to wait for the informer caches to sync before startup fails.
		 */
		private Duration cacheSyncTimeout = ControllerDefinition.DEFAULT_CACHE_SYNC_TIMEOUT;

		/**
		 * How often every watched object is reconciled again without a change; 0 for
		 * never.
		 */
		private Duration resyncPeriod = ControllerDefinition.DEFAULT_RESYNC_PERIOD;

		/**
		 * Whether work queues hand out keys by priority, so that real changes go before
		 * the initial list and resyncs, as controller-runtime's priority queue does.
		 * Applies to every controller; false for first in, first out.
		 */
		private boolean priorityQueue = true;

		/**
		 * Rate limiter for failures and Result.requeue(). Defaults to client-go's: max-of
		 * exponential 5ms..1000s and bucket 10 qps / burst 100.
		 */
		@NestedConfigurationProperty
		private final RateLimiterProperties rateLimiter = new RateLimiterProperties();

		public int getMaxConcurrentReconciles() {
			return this.maxConcurrentReconciles;
		}

		public void setMaxConcurrentReconciles(int maxConcurrentReconciles) {
			this.maxConcurrentReconciles = maxConcurrentReconciles;
		}

		public Duration getReconcileTimeout() {
			return this.reconcileTimeout;
		}

		public void setReconcileTimeout(Duration reconcileTimeout) {
			this.reconcileTimeout = reconcileTimeout;
		}

		public Duration getCacheSyncTimeout() {
			return this.cacheSyncTimeout;
		}

		public void setCacheSyncTimeout(Duration cacheSyncTimeout) {
			this.cacheSyncTimeout = cacheSyncTimeout;
		}

		public Duration getResyncPeriod() {
			return this.resyncPeriod;
		}

		public void setResyncPeriod(Duration resyncPeriod) {
			this.resyncPeriod = resyncPeriod;
		}

		public boolean isPriorityQueue() {
			return this.priorityQueue;
		}

		public void setPriorityQueue(boolean priorityQueue) {
			this.priorityQueue = priorityQueue;
		}

		public RateLimiterProperties getRateLimiter() {
			return this.rateLimiter;
		}

	}

	/**
	 * Manager-level settings.
	 */
	public static class Manager {

		/**
		 * The token bucket that every reconcile of every controller passes before it
		 * runs.
		 */
		@NestedConfigurationProperty
		private final ManagerRateLimiterProperties rateLimiter = new ManagerRateLimiterProperties();

		public ManagerRateLimiterProperties getRateLimiter() {
			return this.rateLimiter;
		}

	}

	/**
	 * Metrics settings.
	 */
	public static class Metrics {

		/**
		 * Whether to publish controller-runtime's and client-go's metrics and
		 * kube-reconciler's own through Micrometer.
		 */
		private boolean enabled = true;

		/**
		 * Whether a manager with a fleet labels the reconcile and work queue metrics with
		 * the cluster of their keys (cluster="" for the local one); false drops the
		 * label, summing the clusters' series, for cardinality.
		 */
		private boolean clusterLabel = true;

		/**
		 * Prometheus' standard process metrics.
		 */
		private final Process process = new Process();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isClusterLabel() {
			return this.clusterLabel;
		}

		public void setClusterLabel(boolean clusterLabel) {
			this.clusterLabel = clusterLabel;
		}

		public Process getProcess() {
			return this.process;
		}

		/**
		 * Prometheus' standard process metrics settings.
		 */
		public static class Process {

			/**
			 * Whether to publish Prometheus' standard process metrics
			 * (process_cpu_seconds_total, process_resident_memory_bytes and the rest) in
			 * the Prometheus registry, each unless another meter publishes its name.
			 */
			private boolean enabled = true;

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

		}

	}

	/**
	 * What the informers change in objects before caching them and handing them to
	 * reconcilers.
	 */
	public static class Cache {

		/**
		 * Whether to drop metadata.managedFields from every cached object, which saves
		 * memory; a reconciler that reads managedFields must get the object from the API
		 * server.
		 */
		private boolean stripManagedFields = true;

		/**
		 * Whether to compact every cached object: share the strings and timestamps that
		 * many objects repeat and hold small label, annotation and data maps in arrays,
		 * which saves memory without changing what the objects say.
		 */
		private boolean compact = true;

		/**
		 * Most objects an informer asks for in one list request, with limit and continue
		 * as client-go's reflector pages, for lists larger than watch-cache-list-max, so
		 * that the JSON of every object is never held at once; 0 lists everything in one
		 * request from the API server's watch cache, whatever the size.
		 */
		private int listPageSize = 500;

		/**
		 * Most objects an informer reads whole, in one request, from the API server's
		 * watch cache; larger lists come in pages of list-page-size. 0 reads every list
		 * in pages.
		 */
		private int watchCacheListMax = 10000;

		public boolean isStripManagedFields() {
			return this.stripManagedFields;
		}

		public void setStripManagedFields(boolean stripManagedFields) {
			this.stripManagedFields = stripManagedFields;
		}

		public boolean isCompact() {
			return this.compact;
		}

		public void setCompact(boolean compact) {
			this.compact = compact;
		}

		public int getListPageSize() {
			return this.listPageSize;
		}

		public void setListPageSize(int listPageSize) {
			this.listPageSize = listPageSize;
		}

		public int getWatchCacheListMax() {
			return this.watchCacheListMax;
		}

		public void setWatchCacheListMax(int watchCacheListMax) {
			this.watchCacheListMax = watchCacheListMax;
		}

		/**
		 * How each type is cached, by its resource as kubectl names it: the plural, with
		 * its group outside the core group, in brackets when it has dots
		 * ([backups.example.com]).
		 */
		private final Map<String, ResourceCache> resources = new LinkedHashMap<>();

		public Map<String, ResourceCache> getResources() {
			return this.resources;
		}

	}

	/**
	 * How one type is cached: read through, or with selectors of its own.
	 */
	public static class ResourceCache {

		/**
		 * Whether the type gets no informer for the reconcile context's reads, whose get
		 * and list go to the API server, as controller-runtime's DisableFor.
		 */
		private boolean readThrough;

		/**
		 * Label selector the API server applies to the type's informer, in kubectl -l
		 * syntax, whichever controllers use it.
		 */
		private @Nullable String labelSelector;

		/**
		 * Field selector the API server applies to the type's informer, such as
		 * type=kubernetes.io/tls.
		 */
		private @Nullable String fieldSelector;

		public boolean isReadThrough() {
			return this.readThrough;
		}

		public void setReadThrough(boolean readThrough) {
			this.readThrough = readThrough;
		}

		public @Nullable String getLabelSelector() {
			return this.labelSelector;
		}

		public void setLabelSelector(@Nullable String labelSelector) {
			this.labelSelector = labelSelector;
		}

		public @Nullable String getFieldSelector() {
			return this.fieldSelector;
		}

		public void setFieldSelector(@Nullable String fieldSelector) {
			this.fieldSelector = fieldSelector;
		}

	}

	/**
	 * CustomResourceDefinitions applied by server-side apply while the application
	 * starts, before the controllers list their types.
	 */
	public static class Crds {

		/**
		 * Whether to apply the CRDs found at the locations, and wait until the API server
		 * serves them, before the controllers start. Needs get, create and patch on
		 * customresourcedefinitions, which the derived RBAC then grants.
		 */
		private boolean apply;

		/**
		 * Class path locations of the CRDs to apply: files, or '*' patterns in a folder,
		 * such as the generated META-INF/kubernetes/crds/*.yaml.
		 */
		private List<String> locations = new ArrayList<>(List.of(CrdFiles.DEFAULT_LOCATION));

		public boolean isApply() {
			return this.apply;
		}

		public void setApply(boolean apply) {
			this.apply = apply;
		}

		public List<String> getLocations() {
			return this.locations;
		}

		public void setLocations(List<String> locations) {
			this.locations = locations;
		}

	}

	// clusters (issue 40): the fleet's static list and its kubeconfig Secrets

	/**
	 * Clusters of the fleet, by name, engaged when the manager starts, for the
	 * controllers whose clusters are "fleet" or "both".
	 */
	private final Map<String, ClusterProperties> clusters = new LinkedHashMap<>();

	/**
	 * Kubeconfig Secrets of the local cluster, each engaging the cluster it names.
	 */
	@NestedConfigurationProperty
	private final ClusterProperties.Secrets clusterSecrets = new ClusterProperties.Secrets();

	public Map<String, ClusterProperties> getClusters() {
		return this.clusters;
	}

	public ClusterProperties.Secrets getClusterSecrets() {
		return this.clusterSecrets;
	}

	// cluster profiles (issue 40): the Cluster Inventory API's ClusterProfiles

	/**
	 * ClusterProfiles of the local cluster, each engaging its cluster.
	 */
	@NestedConfigurationProperty
	private final ClusterProfileProperties clusterProfiles = new ClusterProfileProperties();

	public ClusterProfileProperties getClusterProfiles() {
		return this.clusterProfiles;
	}

}
