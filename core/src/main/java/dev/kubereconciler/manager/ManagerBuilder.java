package dev.kubereconciler.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.CacheTransforms;
import dev.kubereconciler.cluster.ClusterProvider;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.events.EventRecorders;
import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.observation.ReconcileObservations;
import dev.kubereconciler.sharding.ShardingSettings;
import dev.kubereconciler.time.DelayScheduler;

/**
 * Collects the controllers and settings of a {@link ControllerManager} and builds it.
 */
public final class ManagerBuilder {

	final ApiClient apiClient;

	final List<ControllerDefinition> definitions = new ArrayList<>();

	@Nullable SharedInformerFactory informerFactory;

	@Nullable ManagerGate gate;

	ManagerGate.@Nullable AcrossClusters gateAcrossClusters;

	Duration clusterRetryBackoff = Duration.ofSeconds(1);

	Duration clusterRetryBackoffCap = Duration.ofSeconds(30);

	@Nullable LeaderElectionSettings leaderElection;

	Duration shutdownTimeout = ControllerManager.DEFAULT_SHUTDOWN_TIMEOUT;

	@Nullable DelayScheduler clock;

	ThreadFactory threadFactory = defaultThreadFactory();

	ControllerListener listener = ControllerListener.NONE;

	Duration abandonGrace = ControllerManager.DEFAULT_ABANDON_GRACE;

	Duration watchdogPeriod = Duration.ofMillis(100);

	boolean priorityQueue = true;

	@Nullable Function<String, EventRecorder> eventRecorders;

	CacheTransforms cacheTransforms = CacheTransforms.defaults();

	int listPageSize = ControllerManager.DEFAULT_LIST_PAGE_SIZE;

	int watchCacheListMax = ControllerManager.DEFAULT_WATCH_CACHE_LIST_MAX;

	CacheOptions cacheOptions = CacheOptions.defaults();

	@Nullable ShardingSettings sharding;

	boolean clusterRate;

	@Nullable ReconcileObservations observations;

	ManagerBuilder(ApiClient apiClient) {
		this.apiClient = Objects.requireNonNull(apiClient, "apiClient must not be null");
	}

	/**
	 * Add a controller to run; names must be unique. By default there are none.
	 * @param definition the controller
	 * @return this builder
	 */
	public ManagerBuilder controller(ControllerDefinition definition) {
		this.definitions.add(definition);
		return this;
	}

	/**
	 * Use this informer factory instead of a private one; its informers are shared, and
	 * only those this manager uses are stopped with it.
	 * @param informerFactory the factory
	 * @return this builder
	 */
	public ManagerBuilder informerFactory(SharedInformerFactory informerFactory) {
		this.informerFactory = informerFactory;
		return this;
	}

	/**
	 * Pass every reconcile of every controller through this gate; by default
	 * {@link ManagerGate#unlimited()}, which never delays.
	 * @param gate the gate
	 * @return this builder
	 */
	public ManagerBuilder gate(ManagerGate gate) {
		this.gate = gate;
		return this;
	}

	/**
	 * Share the gate's bucket across every cluster of the fleet, or split it so that the
	 * local cluster and each member cluster have a bucket of the gate's rate and burst
	 * each; by default as the gate says, which is shared unless it was made split.
	 * @param acrossClusters shared or split
	 * @return this builder
	 */
	public ManagerBuilder gateAcrossClusters(ManagerGate.AcrossClusters acrossClusters) {
		this.gateAcrossClusters = acrossClusters;
		return this;
	}

	/**
	 * Back off the informers of a member cluster whose API server does not answer: the
	 * first retry comes {@code initial} after the failure, each next one twice as long
	 * after, at most {@code cap}; by default 1 s doubling to 30 s. client-java's
	 * reflector waits a second between runs anyway, so shorter waits act as one second.
	 * @param initial the wait before the first retry
	 * @param cap the longest wait between two retries
	 * @return this builder
	 */
	public ManagerBuilder clusterRetryBackoff(Duration initial, Duration cap) {
		if (initial.isNegative() || initial.isZero() || cap.compareTo(initial) < 0) {
			throw new IllegalArgumentException("clusterRetryBackoff needs an initial wait above zero and a cap not "
					+ "below it, was " + initial + " and " + cap);
		}
		this.clusterRetryBackoff = initial;
		this.clusterRetryBackoffCap = cap;
		return this;
	}

	/**
	 * Run the controllers only while this instance holds the Lease; by default there is
	 * no leader election and every instance runs them.
	 * @param leaderElection the Lease settings
	 * @return this builder
	 */
	public ManagerBuilder leaderElection(LeaderElectionSettings leaderElection) {
		this.leaderElection = leaderElection;
		return this;
	}

	/**
	 * Shard the keys across the replicas that use the same settings, instead of running
	 * every key here; off by default.
	 * @param sharding the sharding settings
	 * @param clusterRate whether the gate's bucket is the whole cluster's rate, divided
	 * among the live members, rather than this replica's
	 * @return this builder
	 */
	public ManagerBuilder sharding(ShardingSettings sharding, boolean clusterRate) {
		this.sharding = sharding;
		this.clusterRate = clusterRate;
		return this;
	}

	/**
	 * How long {@link ControllerManager#stop()} lets in-flight reconciles finish before
	 * it interrupts them; default {@link ControllerManager#DEFAULT_SHUTDOWN_TIMEOUT} (30
	 * s).
	 * @param shutdownTimeout the timeout, not negative
	 * @return this builder
	 */
	public ManagerBuilder shutdownTimeout(Duration shutdownTimeout) {
		this.shutdownTimeout = shutdownTimeout;
		return this;
	}

	/**
	 * Use this clock for all time keeping: every queue's delays, the gate's waits, the
	 * watchdog and the cache sync; by default a clock on {@link System#nanoTime()} whose
	 * one scheduling thread runs while the manager runs.
	 * @param clock the clock
	 * @return this builder
	 */
	public ManagerBuilder clock(DelayScheduler clock) {
		this.clock = clock;
		return this;
	}

	/**
	 * Create workers and the manager's own threads with this factory; by default daemon
	 * threads named {@code kube-reconciler-<n>}.
	 * @param threadFactory the factory
	 * @return this builder
	 */
	public ManagerBuilder threadFactory(ThreadFactory threadFactory) {
		this.threadFactory = threadFactory;
		return this;
	}

	/**
	 * Tell this listener about reconciles, limiter delays and queue changes; by default
	 * {@link ControllerListener#NONE}.
	 * @param listener the listener
	 * @return this builder
	 */
	public ManagerBuilder listener(ControllerListener listener) {
		this.listener = listener;
		return this;
	}

	/**
	 * Observe each reconcile as a Micrometer {@code Observation}, current on the worker's
	 * thread while the reconciler runs; none by default.
	 * @param observations the observations
	 * @return this builder
	 */
	public ManagerBuilder observations(ReconcileObservations observations) {
		this.observations = Objects.requireNonNull(observations, "observations must not be null");
		return this;
	}

	/**
	 * How long a reconcile that ignores the interrupt after its timeout may go on before
	 * its key is retried and its worker replaced; default 5 s.
	 * @param abandonGrace the grace period
	 * @return this builder
	 */
	public ManagerBuilder abandonGrace(Duration abandonGrace) {
		this.abandonGrace = abandonGrace;
		return this;
	}

	/**
	 * How often the watchdog looks for reconciles past their timeout; default 100 ms.
	 * @param watchdogPeriod the period, positive
	 * @return this builder
	 */
	public ManagerBuilder watchdogPeriod(Duration watchdogPeriod) {
		this.watchdogPeriod = watchdogPeriod;
		return this;
	}

	/**
	 * Hand out each controller's keys by priority, so that real changes go before the
	 * initial list and resyncs, as controller-runtime does by default since v0.23;
	 * default {@code true}. With {@code false}, keys go first in, first out.
	 * @param priorityQueue whether to use the priority queue
	 * @return this builder
	 */
	public ManagerBuilder priorityQueue(boolean priorityQueue) {
		this.priorityQueue = priorityQueue;
		return this;
	}

	/**
	 * Record the Kubernetes Events of each controller's reconciles with the recorder this
	 * function returns for the controller's name; none by default.
	 * @param eventRecorders the recorder of each controller
	 * @return this builder
	 */
	public ManagerBuilder eventRecorders(Function<String, EventRecorder> eventRecorders) {
		this.eventRecorders = eventRecorders;
		return this;
	}

	/**
	 * What the informers this manager creates change in objects before caching them; by
	 * default they drop {@code managedFields}.
	 * @param cacheTransforms the transforms
	 * @return this builder
	 */
	public ManagerBuilder cacheTransforms(CacheTransforms cacheTransforms) {
		this.cacheTransforms = Objects.requireNonNull(cacheTransforms, "cacheTransforms must not be null");
		return this;
	}

	/**
	 * List the objects of each informer that has more than
	 * {@link #watchCacheListMax(int)} in pages of at most this many, with {@code limit}
	 * and {@code continue} as client-go's reflector pages, so that the client never holds
	 * the JSON of every object at once; default
	 * {@link ControllerManager#DEFAULT_LIST_PAGE_SIZE} (500). With 0, an informer lists
	 * everything in one request at the version client-java's reflector asks for, which
	 * the API server's watch cache answers at once, whatever the size.
	 * @param listPageSize the most objects per list request, or 0 for no limit
	 * @return this builder
	 */
	public ManagerBuilder listPageSize(int listPageSize) {
		if (listPageSize < 0) {
			throw new IllegalArgumentException("listPageSize must not be negative, was " + listPageSize);
		}
		this.listPageSize = listPageSize;
		return this;
	}

	/**
	 * Read an informer's list whole from the API server's watch cache, in one request,
	 * when it holds at most this many objects, and in pages of {@link #listPageSize(int)}
	 * otherwise; default {@link ControllerManager#DEFAULT_WATCH_CACHE_LIST_MAX} (10,000).
	 * The list is asked of the watch cache, as client-go's reflector asks, which answers
	 * it whole whatever its size: past this many objects the answer is given up unread
	 * and the list read again in pages. With 0, every list is read in pages.
	 * @param watchCacheListMax the most objects read whole from the watch cache, or 0
	 * @return this builder
	 */
	public ManagerBuilder watchCacheListMax(int watchCacheListMax) {
		if (watchCacheListMax < 0) {
			throw new IllegalArgumentException("watchCacheListMax must not be negative, was " + watchCacheListMax);
		}
		this.watchCacheListMax = watchCacheListMax;
		return this;
	}

	/**
	 * How each type is cached: read through (no informer for the reconcile context's
	 * reads, which go to the API server), with label and field selectors of its own, and
	 * with indexes; by default every type a controller uses is cached whole, with the
	 * built-in owner index only. The controllers' own indexes are added to these.
	 * @param cacheOptions the options
	 * @return this builder
	 */
	public ManagerBuilder cacheOptions(CacheOptions cacheOptions) {
		this.cacheOptions = Objects.requireNonNull(cacheOptions, "cacheOptions must not be null");
		return this;
	}

	/**
	 * Build the manager; nothing starts until {@link ControllerManager#start()}.
	 * @return the manager
	 */
	public ControllerManager build() {
		return new ControllerManager(this);
	}

	static ThreadFactory defaultThreadFactory() {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, "kube-reconciler-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	// clusters (issue 40): the fleet's providers and what each engaged cluster records

	final List<ClusterProvider> clusterProviders = new ArrayList<>();

	@Nullable Function<ApiClient, EventRecorders> clusterEvents;

	/**
	 * Engage and disengage the clusters this provider discovers, for the controllers
	 * whose {@link dev.kubereconciler.cluster.ClusterScope} includes the fleet; none by
	 * default. It starts once the manager's local caches synced and stops with the
	 * manager.
	 * @param provider the provider
	 * @return this builder
	 */
	public ManagerBuilder clusterProvider(ClusterProvider provider) {
		this.clusterProviders.add(Objects.requireNonNull(provider, "provider must not be null"));
		return this;
	}

	/**
	 * Record the Kubernetes Events of the reconciles in an engaged cluster with the
	 * recorders this function makes from the cluster's client, so that they land in that
	 * cluster; started on engage and stopped on disengage. None by default.
	 * @param clusterEvents makes a cluster's recorders
	 * @return this builder
	 */
	public ManagerBuilder clusterEvents(Function<ApiClient, EventRecorders> clusterEvents) {
		this.clusterEvents = Objects.requireNonNull(clusterEvents, "clusterEvents must not be null");
		return this;
	}

}
