package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.ratelimit.DelayScheduler;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiterScopes;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.ShardCoordinator;
import dev.kubereconciler.sharding.ShardingSettings;

/**
 * Runs a set of controllers: starts the informers, waits for their caches to sync, then
 * starts the controllers' workers, directly or once this instance is elected leader. It
 * is the one way to build a {@link Controller}; a test that needs no API server builds
 * one with a manager it never starts, and starts the controller itself.
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

	private static final Logger logger = LoggerFactory.getLogger(ControllerManager.class);

	private final Map<String, Controller> controllers;

	private final Caches caches;

	private final ManagerGate gate;

	private final LeaderElectionSettings leaderElection;

	private final ApiClient apiClient;

	private final Duration shutdownTimeout;

	private final DelayScheduler clock;

	private final ThreadFactory threadFactory;

	private final Watchdog watchdog;

	private final Object lifecycleMonitor = new Object();

	private volatile boolean running;

	private volatile boolean leader;

	private LeaderElectionRunner election;

	private final @Nullable ShardedRun sharding;

	private ControllerManager(Builder builder) {
		this.apiClient = builder.apiClient;
		this.gate = (builder.gate != null) ? builder.gate : ManagerGate.unlimited();
		this.leaderElection = builder.leaderElection;
		this.shutdownTimeout = builder.shutdownTimeout;
		this.clock = (builder.clock != null) ? builder.clock : new ManagedDelayScheduler(builder.threadFactory);
		this.threadFactory = builder.threadFactory;
		ReconcileToolkit toolkit = new ReconcileToolkit(builder.apiClient, builder.eventRecorders);
		this.controllers = Collections.unmodifiableMap(createControllers(builder, toolkit));
		this.caches = new Caches(builder.apiClient, builder.informerFactory, builder.cacheTransforms, this.clock);
		this.caches.wire(this.controllers.values());
		toolkit.attach(this.caches.informers(), this.controllers.values());
		this.sharding = (builder.sharding != null) ? shardedRun(builder) : null;
		this.watchdog = new Watchdog(this.controllers.values(), this.clock, builder.watchdogPeriod, this.threadFactory);
	}

	private Map<String, Controller> createControllers(Builder builder, ReconcileToolkit toolkit) {
		Map<String, Controller> controllers = new LinkedHashMap<>();
		// one limiter instance in several controllers, at any depth: share its rate, not
		// its per-item backoff
		Iterator<RateLimiter<Request>> limiters = RateLimiterScopes
			.scopeShared(builder.definitions.stream().map(ControllerDefinition::name).toList(),
					builder.definitions.stream().map(ControllerDefinition::rateLimiter).toList())
			.iterator();
		for (ControllerDefinition original : builder.definitions) {
			RateLimiter<Request> limiter = limiters.next();
			ControllerDefinition definition = toolkit
				.bind((limiter != original.rateLimiter()) ? original.withRateLimiter(limiter) : original);
			if (controllers.containsKey(definition.name())) {
				throw new IllegalArgumentException("Duplicate controller name '" + definition.name() + "'");
			}
			controllers.put(definition.name(), new Controller(definition, this.gate, builder.listener, this.clock,
					this.threadFactory, builder.abandonGrace, builder.priorityQueue));
		}
		return controllers;
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
						+ (timeout.isZero() ? "none" : timeout)
						+ ", but with sharding it must be below the lease duration (" + settings.leaseDuration()
						+ ") minus the renew deadline (" + settings.renewDeadline()
						+ "), so that a reconcile ends before another replica can take its partition over");
			}
		}
		ShardedRun run = new ShardedRun(builder.apiClient, settings, builder.clusterRate, this.controllers.values(),
				this.gate, this.clock, this.clock, this.threadFactory, this.shutdownTimeout, builder.abandonGrace);
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

	@Override
	public Map<String, Controller> controllers() {
		return this.controllers;
	}

	@Override
	public Controller controller(String name) {
		return this.controllers.get(name);
	}

	@Override
	public ManagerGate gate() {
		return this.gate;
	}

	/**
	 * Return the informer caches.
	 * @return the caches
	 */
	public Caches caches() {
		return this.caches;
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
	public ShardCoordinator shardCoordinator() {
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

	@Override
	public <T extends KubernetesObject> Lister<T> lister(Class<T> type) {
		return this.caches.lister(type);
	}

	@Override
	public boolean hasSynced() {
		return this.caches.hasSynced();
	}

	/**
	 * Start the informers, wait for their caches, then start the controllers (or the
	 * leader election that starts them).
	 * @throws IllegalStateException if a cache does not sync within its controller's
	 * cache sync timeout
	 */
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.running) {
				return;
			}
			this.running = true;
			if (this.clock instanceof ManagedDelayScheduler managed) {
				managed.start();
			}
			this.caches.start();
			try {
				this.caches.awaitSync(this.controllers.values());
			}
			catch (RuntimeException ex) {
				this.controllers.values().forEach((controller) -> controller.fail(ex));
				this.caches.stop();
				this.running = false;
				throw ex;
			}
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
	 * Stop the controllers, waiting up to the shutdown timeout for in-flight reconciles,
	 * then the informers.
	 */
	public void stop() {
		synchronized (this.lifecycleMonitor) {
			if (!this.running) {
				return;
			}
			this.running = false;
			long deadline = this.clock.read() + this.shutdownTimeout.toNanos();
			for (Controller controller : this.controllers.values()) {
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
			this.watchdog.stop();
			this.caches.stop();
			if (this.clock instanceof ManagedDelayScheduler managed) {
				managed.stop();
			}
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

		private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

		private DelayScheduler clock;

		private ThreadFactory threadFactory = defaultThreadFactory();

		private ControllerListener listener = ControllerListener.NONE;

		private Duration abandonGrace = DEFAULT_ABANDON_GRACE;

		private Duration watchdogPeriod = Duration.ofMillis(100);

		private boolean priorityQueue = true;

		private @Nullable Function<String, EventRecorder> eventRecorders;

		private CacheTransforms cacheTransforms = CacheTransforms.defaults();

		private @Nullable ShardingSettings sharding;

		private boolean clusterRate;

		private Builder(ApiClient apiClient) {
			this.apiClient = Objects.requireNonNull(apiClient, "apiClient must not be null");
		}

		/**
		 * Add a controller to run; names must be unique. By default there are none.
		 * @param definition the controller
		 * @return this builder
		 */
		public Builder controller(ControllerDefinition definition) {
			this.definitions.add(definition);
			return this;
		}

		/**
		 * Use this informer factory instead of a private one; its informers are shared,
		 * and only those this manager uses are stopped with it.
		 * @param informerFactory the factory
		 * @return this builder
		 */
		public Builder informerFactory(SharedInformerFactory informerFactory) {
			this.informerFactory = informerFactory;
			return this;
		}

		/**
		 * Pass every reconcile of every controller through this gate; by default
		 * {@link ManagerGate#unlimited()}, which never delays.
		 * @param gate the gate
		 * @return this builder
		 */
		public Builder gate(ManagerGate gate) {
			this.gate = gate;
			return this;
		}

		/**
		 * Run the controllers only while this instance holds the Lease; by default there
		 * is no leader election and every instance runs them.
		 * @param leaderElection the Lease settings
		 * @return this builder
		 */
		public Builder leaderElection(LeaderElectionSettings leaderElection) {
			this.leaderElection = leaderElection;
			return this;
		}

		/**
		 * Shard the keys across the replicas that use the same settings, instead of
		 * running every key here; off by default.
		 * @param sharding the sharding settings
		 * @param clusterRate whether the gate's bucket is the whole cluster's rate,
		 * divided among the live members, rather than this replica's
		 * @return this builder
		 */
		public Builder sharding(ShardingSettings sharding, boolean clusterRate) {
			this.sharding = sharding;
			this.clusterRate = clusterRate;
			return this;
		}

		/**
		 * How long {@link ControllerManager#stop()} lets in-flight reconciles finish
		 * before it interrupts them; default {@link #DEFAULT_SHUTDOWN_TIMEOUT} (30 s).
		 * @param shutdownTimeout the timeout, not negative
		 * @return this builder
		 */
		public Builder shutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
			return this;
		}

		/**
		 * Use this clock for all time keeping: every queue's delays, the gate's waits,
		 * the watchdog and the cache sync; by default a clock on
		 * {@link System#nanoTime()} whose one scheduling thread runs while the manager
		 * runs.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(DelayScheduler clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Create workers and the manager's own threads with this factory; by default
		 * daemon threads named {@code kube-reconciler-<n>}.
		 * @param threadFactory the factory
		 * @return this builder
		 */
		public Builder threadFactory(ThreadFactory threadFactory) {
			this.threadFactory = threadFactory;
			return this;
		}

		/**
		 * Tell this listener about reconciles, limiter delays and queue changes; by
		 * default {@link ControllerListener#NONE}.
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder listener(ControllerListener listener) {
			this.listener = listener;
			return this;
		}

		/**
		 * How long a reconcile that ignores the interrupt after its timeout may go on
		 * before its key is retried and its worker replaced; default 5 s.
		 * @param abandonGrace the grace period
		 * @return this builder
		 */
		public Builder abandonGrace(Duration abandonGrace) {
			this.abandonGrace = abandonGrace;
			return this;
		}

		/**
		 * How often the watchdog looks for reconciles past their timeout; default 100 ms.
		 * @param watchdogPeriod the period, positive
		 * @return this builder
		 */
		public Builder watchdogPeriod(Duration watchdogPeriod) {
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
		public Builder priorityQueue(boolean priorityQueue) {
			this.priorityQueue = priorityQueue;
			return this;
		}

		/**
		 * Record the Kubernetes Events of each controller's reconciles with the recorder
		 * this function returns for the controller's name; none by default.
		 * @param eventRecorders the recorder of each controller
		 * @return this builder
		 */
		public Builder eventRecorders(Function<String, EventRecorder> eventRecorders) {
			this.eventRecorders = eventRecorders;
			return this;
		}

		/**
		 * What the informers this manager creates change in objects before caching them;
		 * by default they drop {@code managedFields}.
		 * @param cacheTransforms the transforms
		 * @return this builder
		 */
		public Builder cacheTransforms(CacheTransforms cacheTransforms) {
			this.cacheTransforms = Objects.requireNonNull(cacheTransforms, "cacheTransforms must not be null");
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

	}

}
