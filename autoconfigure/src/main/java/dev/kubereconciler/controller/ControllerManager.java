package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.queue.DelayScheduler;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.Ticker;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.ShardCoordinator;
import dev.kubereconciler.sharding.ShardingSettings;

/**
 * Runs a set of controllers: starts the informers, waits for their caches to sync, then starts
 * the controllers' workers, directly or once this instance is elected leader.
 *
 * <p>{@link #stop()} stops taking new work, lets in-flight reconciles finish for up to the
 * shutdown timeout, then stops the informers.
 */
public final class ControllerManager {

	/**
	 * How long a reconcile that ignores the interrupt after its timeout may go on before its
	 * key is retried and its worker replaced, by default.
	 */
	public static final Duration DEFAULT_ABANDON_GRACE = Duration.ofSeconds(5);

	private static final Logger logger = LoggerFactory.getLogger(ControllerManager.class);

	private final Map<String, Controller> controllers;

	private final InformerWiring informers;

	private final SharedInformerFactory informerFactory;

	private final boolean ownsInformerFactory;

	private final ManagerGate gate;

	private final LeaderElectionSettings leaderElection;

	private final ApiClient apiClient;

	private final Duration shutdownTimeout;

	private final DelayScheduler scheduler;

	private final Ticker ticker;

	private final Sleeper sleeper;

	private final ThreadFactory threadFactory;

	private final Duration watchdogPeriod;

	private final Object lifecycleMonitor = new Object();

	private volatile boolean running;

	private volatile boolean leader;

	private Thread watchdog;

	private LeaderElectionRunner election;

	private final ShardedRun sharding;

	private ControllerManager(Builder builder) {
		this.apiClient = builder.apiClient;
		this.informerFactory = (builder.informerFactory != null) ? builder.informerFactory
				: new SharedInformerFactory(builder.apiClient);
		this.ownsInformerFactory = builder.informerFactory == null;
		this.gate = (builder.gate != null) ? builder.gate : ManagerGate.unlimited();
		this.leaderElection = builder.leaderElection;
		this.shutdownTimeout = builder.shutdownTimeout;
		this.scheduler = (builder.scheduler != null) ? builder.scheduler
				: new ManagedDelayScheduler(builder.threadFactory);
		this.ticker = this.scheduler.ticker();
		this.sleeper = builder.sleeper;
		this.threadFactory = builder.threadFactory;
		this.watchdogPeriod = builder.watchdogPeriod;
		Map<String, Controller> controllers = new LinkedHashMap<>();
		Map<RateLimiter<Request>, Integer> limiterUse = new IdentityHashMap<>();
		builder.definitions.forEach((definition) -> limiterUse.merge(definition.rateLimiter(), 1, Integer::sum));
		for (ControllerDefinition original : builder.definitions) {
			// one limiter instance handed to several controllers: share its rate, not its per-item backoff
			ControllerDefinition definition = (limiterUse.get(original.rateLimiter()) > 1)
					? original.withRateLimiter(original.rateLimiter().forScope(original.name())) : original;
			if (controllers.containsKey(definition.name())) {
				throw new IllegalArgumentException("Duplicate controller name '" + definition.name() + "'");
			}
			QueueObserver<Request> observer = builder.listener.queueObserver(definition.name());
			if (observer == null) {
				observer = QueueObserver.none();
			}
			Controller controller = new Controller(definition, ResourceType.of(definition.watches()), this.gate,
					builder.listener, observer, this.scheduler, this.sleeper, this.threadFactory, builder.abandonGrace);
			controllers.put(definition.name(), controller);
		}
		this.controllers = Collections.unmodifiableMap(controllers);
		this.informers = new InformerWiring(builder.apiClient, this.informerFactory);
		this.informers.wire(new ArrayList<>(controllers.values()));
		this.sharding = (builder.sharding != null) ? shardedRun(builder) : null;
	}

	private ShardedRun shardedRun(Builder builder) {
		if (this.leaderElection != null) {
			throw new IllegalArgumentException("Sharding and leader election cannot both be enabled");
		}
		ShardingSettings settings = builder.sharding;
		Duration budget = settings.leaseDuration().minus(settings.renewDeadline());
		for (Controller controller : this.controllers.values()) {
			Duration timeout = controller.definition().reconcileTimeout();
			if (timeout.isZero() || timeout.compareTo(budget) >= 0) {
				throw new IllegalArgumentException("Controller '" + controller.name() + "' has a reconcile timeout of "
						+ (timeout.isZero() ? "none" : timeout) + ", but with sharding it must be below the lease duration ("
						+ settings.leaseDuration() + ") minus the renew deadline (" + settings.renewDeadline()
						+ "), so that a reconcile ends before another replica can take its partition over");
			}
		}
		ShardedRun run = new ShardedRun(builder.apiClient, settings, builder.clusterRate, this.controllers.values(),
				this.gate, this.ticker, this.sleeper, this.threadFactory, this.shutdownTimeout, builder.abandonGrace);
		this.controllers.values().forEach((controller) -> controller.keyOwnership(run.table()));
		return run;
	}

	/**
	 * Start building a manager.
	 * @param apiClient the client for the API server
	 * @return a builder
	 */
	public static Builder builder(ApiClient apiClient) {
		return new Builder(apiClient);
	}

	public Map<String, Controller> controllers() {
		return this.controllers;
	}

	public Controller controller(String name) {
		return this.controllers.get(name);
	}

	public ManagerGate gate() {
		return this.gate;
	}

	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Return whether this instance runs its controllers: always when leader election is off.
	 * @return whether this instance is the leader
	 */
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
	public ShardCoordinator shardCoordinator() {
		return (this.sharding != null) ? this.sharding.coordinator() : null;
	}

	/**
	 * Return how many cached keys of each controller fall in each partition this replica holds.
	 * @return the counts by partition, then by controller name; empty when sharding is off
	 */
	public Map<Integer, Map<String, Integer>> shardKeyCounts() {
		return (this.sharding != null) ? this.sharding.keyCounts() : Map.of();
	}

	/**
	 * Return the leader election settings.
	 * @return the settings, or {@code null} when every instance runs the controllers
	 */
	public LeaderElectionSettings leaderElection() {
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
	 * Return a lister over the informer cache of a watched or owned type, so that reconcilers
	 * read objects without a request to the API server, as controller-runtime's cached client
	 * does.
	 * @param <T> the model type
	 * @param type the model class, watched or owned by one of the controllers
	 * @return the lister
	 * @throws IllegalArgumentException if no controller watches or owns the type
	 */
	@SuppressWarnings("unchecked")
	public <T extends KubernetesObject> Lister<T> lister(Class<T> type) {
		SharedIndexInformer<? extends KubernetesObject> informer = this.informers.informers().get(type);
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
		return this.informers.informers().values().stream().allMatch(SharedIndexInformer::hasSynced);
	}

	/**
	 * Start the informers, wait for their caches, then start the controllers (or the leader
	 * election that starts them).
	 * @throws IllegalStateException if a cache does not sync within its controller's cache sync
	 * timeout
	 */
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.running) {
				return;
			}
			this.running = true;
			if (this.scheduler instanceof ManagedDelayScheduler managed) {
				managed.start();
			}
			this.informerFactory.startAllRegisteredInformers();
			try {
				awaitCacheSync();
			}
			catch (RuntimeException ex) {
				this.controllers.values().forEach((controller) -> controller.fail(ex));
				stopInformers();
				this.running = false;
				throw ex;
			}
			this.watchdog = this.threadFactory.newThread(this::watchdogLoop);
			this.watchdog.setName("kube-reconciler-watchdog");
			this.watchdog.setDaemon(true);
			this.watchdog.start();
			if (this.leaderElection == null) {
				this.leader = true;
				this.controllers.values().forEach(Controller::start);
				if (this.sharding != null) {
					this.sharding.start();
				}
			}
			else {
				this.controllers.values().forEach(Controller::waitForLeadership);
				this.election = new LeaderElectionRunner(this.apiClient, this.leaderElection, this.threadFactory,
						this::startLeading, this::stopLeading);
				this.election.start();
			}
		}
	}

	private void awaitCacheSync() {
		for (Controller controller : this.controllers.values()) {
			ControllerDefinition definition = controller.definition();
			long deadline = this.ticker.read() + definition.cacheSyncTimeout().toNanos();
			List<SharedIndexInformer<? extends KubernetesObject>> needed = new ArrayList<>();
			needed.add(this.informers.informers().get(definition.watches()));
			definition.owns().forEach((type) -> needed.add(this.informers.informers().get(type)));
			while (!needed.stream().allMatch(SharedIndexInformer::hasSynced)) {
				if (this.ticker.read() - deadline >= 0) {
					throw new IllegalStateException("Controller '" + definition.name() + "': the cache of "
							+ controller.resourceType().displayName() + " did not sync within "
							+ definition.cacheSyncTimeout()
							+ "; check that the API server is reachable and that the resource is served "
							+ "(kube-reconciler.controllers." + definition.name() + ".cache-sync-timeout)");
				}
				try {
					this.sleeper.sleep(Duration.ofMillis(50).toNanos());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while waiting for caches to sync", ex);
				}
			}
		}
	}

	private void startLeading() {
		logger.info("Became leader; starting {} controller(s)", this.controllers.size());
		this.leader = true;
		this.controllers.values().forEach(Controller::start);
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
	 * Stop the controllers, waiting up to the shutdown timeout for in-flight reconciles, then the
	 * informers.
	 */
	public void stop() {
		synchronized (this.lifecycleMonitor) {
			if (!this.running) {
				return;
			}
			this.running = false;
			long deadline = this.ticker.read() + this.shutdownTimeout.toNanos();
			for (Controller controller : this.controllers.values()) {
				long remaining = Math.max(0, deadline - this.ticker.read());
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
			if (this.watchdog != null) {
				this.watchdog.interrupt();
				this.watchdog = null;
			}
			stopInformers();
			if (this.scheduler instanceof ManagedDelayScheduler managed) {
				managed.stop();
			}
		}
	}

	private void stopInformers() {
		if (this.ownsInformerFactory) {
			this.informerFactory.stopAllRegisteredInformers(true);
		}
		else {
			this.informers.informers().values().forEach(SharedIndexInformer::stop);
		}
	}

	private void watchdogLoop() {
		while (this.running) {
			try {
				this.sleeper.sleep(this.watchdogPeriod.toNanos());
			}
			catch (InterruptedException ex) {
				return;
			}
			this.controllers.values().forEach(Controller::checkTimeouts);
		}
	}

	/**
	 * Builder for {@link ControllerManager}.
	 */
	public static final class Builder {

		private final ApiClient apiClient;

		private final List<ControllerDefinition> definitions = new ArrayList<>();

		private SharedInformerFactory informerFactory;

		private ManagerGate gate;

		private LeaderElectionSettings leaderElection;

		private Duration shutdownTimeout = Duration.ofSeconds(30);

		private DelayScheduler scheduler;

		private Sleeper sleeper = Sleeper.system();

		private ThreadFactory threadFactory = defaultThreadFactory();

		private ControllerListener listener = ControllerListener.NONE;

		private Duration abandonGrace = DEFAULT_ABANDON_GRACE;

		private Duration watchdogPeriod = Duration.ofMillis(100);

		private ShardingSettings sharding;

		private boolean clusterRate;

		private Builder(ApiClient apiClient) {
			this.apiClient = Objects.requireNonNull(apiClient, "apiClient must not be null");
		}

		public Builder controller(ControllerDefinition definition) {
			this.definitions.add(definition);
			return this;
		}

		/**
		 * Use this informer factory instead of a private one; its informers are shared, and only
		 * those this manager uses are stopped with it.
		 * @param informerFactory the factory
		 * @return this builder
		 */
		public Builder informerFactory(SharedInformerFactory informerFactory) {
			this.informerFactory = informerFactory;
			return this;
		}

		public Builder gate(ManagerGate gate) {
			this.gate = gate;
			return this;
		}

		public Builder leaderElection(LeaderElectionSettings leaderElection) {
			this.leaderElection = leaderElection;
			return this;
		}

		/**
		 * Shard the keys across the replicas that use the same settings, instead of running
		 * every key here; off by default.
		 * @param sharding the sharding settings
		 * @param clusterRate whether the gate's bucket is the whole cluster's rate, divided among
		 * the live members, rather than this replica's
		 * @return this builder
		 */
		public Builder sharding(ShardingSettings sharding, boolean clusterRate) {
			this.sharding = sharding;
			this.clusterRate = clusterRate;
			return this;
		}

		public Builder shutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
			return this;
		}

		/**
		 * Use this scheduler for every queue's delays, and its ticker for all time keeping;
		 * by default one thread on {@link Ticker#system()} runs while the manager runs.
		 * @param scheduler the scheduler
		 * @return this builder
		 */
		public Builder scheduler(DelayScheduler scheduler) {
			this.scheduler = scheduler;
			return this;
		}

		public Builder sleeper(Sleeper sleeper) {
			this.sleeper = sleeper;
			return this;
		}

		public Builder threadFactory(ThreadFactory threadFactory) {
			this.threadFactory = threadFactory;
			return this;
		}

		public Builder listener(ControllerListener listener) {
			this.listener = listener;
			return this;
		}

		/**
		 * How long a reconcile that ignores the interrupt after its timeout may go on before its
		 * key is retried and its worker replaced; default 5 s.
		 * @param abandonGrace the grace period
		 * @return this builder
		 */
		public Builder abandonGrace(Duration abandonGrace) {
			this.abandonGrace = abandonGrace;
			return this;
		}

		public Builder watchdogPeriod(Duration watchdogPeriod) {
			this.watchdogPeriod = watchdogPeriod;
			return this;
		}

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

	}

}
