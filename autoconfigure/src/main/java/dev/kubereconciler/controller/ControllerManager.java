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
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.ratelimit.DelayScheduler;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * Runs a set of controllers: starts the informers, waits for their caches to sync, then starts
 * the controllers' workers, directly or once this instance is elected leader. It is the one
 * way to build a {@link Controller}; a test that needs no API server builds one with a
 * manager it never starts, and starts the controller itself.
 *
 * <p>{@link #stop()} stops taking new work, lets in-flight reconciles finish for up to the
 * shutdown timeout, then stops the informers.
 */
public final class ControllerManager implements ControllerRegistry {

	/**
	 * How long a reconcile that ignores the interrupt after its timeout may go on before its
	 * key is retried and its worker replaced, by default.
	 */
	public static final Duration DEFAULT_ABANDON_GRACE = Duration.ofSeconds(5);

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

	private ControllerManager(Builder builder) {
		this.apiClient = builder.apiClient;
		this.gate = (builder.gate != null) ? builder.gate : ManagerGate.unlimited();
		this.leaderElection = builder.leaderElection;
		this.shutdownTimeout = builder.shutdownTimeout;
		this.clock = (builder.clock != null) ? builder.clock : new ManagedDelayScheduler(builder.threadFactory);
		this.threadFactory = builder.threadFactory;
		this.controllers = Collections.unmodifiableMap(createControllers(builder));
		this.caches = new Caches(builder.apiClient, builder.informerFactory, this.clock);
		this.caches.wire(this.controllers.values());
		this.watchdog = new Watchdog(this.controllers.values(), this.clock, builder.watchdogPeriod,
				this.threadFactory);
	}

	private Map<String, Controller> createControllers(Builder builder) {
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
			controllers.put(definition.name(), new Controller(definition, this.gate, builder.listener, this.clock,
					this.threadFactory, builder.abandonGrace, builder.priorityQueue));
		}
		return controllers;
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
	 * Stop the controllers, waiting up to the shutdown timeout for in-flight reconciles, then the
	 * informers.
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

		private Duration shutdownTimeout = Duration.ofSeconds(30);

		private DelayScheduler clock;

		private ThreadFactory threadFactory = defaultThreadFactory();

		private ControllerListener listener = ControllerListener.NONE;

		private Duration abandonGrace = DEFAULT_ABANDON_GRACE;

		private Duration watchdogPeriod = Duration.ofMillis(100);

		private boolean priorityQueue = true;

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

		public Builder shutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
			return this;
		}

		/**
		 * Use this clock for all time keeping: every queue's delays, the gate's waits, the
		 * watchdog and the cache sync; by default a clock on {@link System#nanoTime()} whose one
		 * scheduling thread runs while the manager runs.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(DelayScheduler clock) {
			this.clock = clock;
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

		/**
		 * Hand out each controller's keys by priority, so that real changes go before the
		 * initial list and resyncs, as controller-runtime does by default since v0.23; default
		 * {@code true}. With {@code false}, keys go first in, first out.
		 * @param priorityQueue whether to use the priority queue
		 * @return this builder
		 */
		public Builder priorityQueue(boolean priorityQueue) {
			this.priorityQueue = priorityQueue;
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
