package dev.kubereconciler.internal.controller;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ThreadFactory;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.PartitionTable;
import dev.kubereconciler.sharding.Partitioner;
import dev.kubereconciler.sharding.RateShare;
import dev.kubereconciler.sharding.ShardCoordinator;
import dev.kubereconciler.sharding.ShardListener;
import dev.kubereconciler.sharding.ShardingSettings;
import dev.kubereconciler.time.DelayScheduler;
import dev.kubereconciler.time.Sleeper;
import dev.kubereconciler.time.Ticker;

/**
 * Runs the {@link ShardCoordinator} of a manager on its own thread, enqueues the cached
 * keys of every partition it acquires, and retunes a cluster-wide manager bucket when the
 * members change.
 */
public final class ShardDispatcher implements ShardListener {

	private static final Logger logger = LoggerFactory.getLogger(ShardDispatcher.class);

	private final ShardingSettings settings;

	private final PartitionTable table;

	private final ShardCoordinator coordinator;

	private final Collection<WorkQueueController> controllers;

	private final @Nullable TokenBucketRateLimiter<?> bucket;

	private final double clusterQps;

	private final int clusterBurst;

	private final Sleeper sleeper;

	private final ThreadFactory threadFactory;

	private volatile boolean running;

	private @Nullable Thread thread;

	ShardDispatcher(ApiClient client, ShardingSettings settings, boolean clusterRate,
			Collection<WorkQueueController> controllers, ManagerGate gate, Ticker ticker, Sleeper sleeper,
			ThreadFactory threadFactory, Duration shutdownTimeout, Duration abandonGrace) {
		this.settings = settings;
		this.table = new PartitionTable(new Partitioner(settings.partitions()), ticker,
				settings.timing().renewDeadline(), shutdownTimeout, abandonGrace);
		this.coordinator = new ShardCoordinator(client, settings, this.table, ticker, Clock.systemUTC(), this);
		this.controllers = controllers;
		this.bucket = (clusterRate && !gate.bucket().isUnlimited()) ? gate.bucket() : null;
		this.clusterQps = gate.bucket().qps();
		this.clusterBurst = gate.bucket().burst();
		this.sleeper = sleeper;
		this.threadFactory = threadFactory;
	}

	/**
	 * Create the sharded run of a manager, after checking that its controllers' timeouts
	 * allow sharding, and make every controller dispatch only the keys this replica owns.
	 * @param apiClient the client for the Lease calls
	 * @param settings the sharding settings
	 * @param clusterRate whether the manager bucket's rate is the whole cluster's, to be
	 * shared among the live members
	 * @param controllers the manager's controllers
	 * @param gate the manager's gate
	 * @param clock the manager's clock
	 * @param threadFactory the manager's thread factory
	 * @param shutdownTimeout how long the manager lets in-flight reconciles finish
	 * @param abandonGrace how long a reconcile past its timeout may ignore the interrupt
	 * @return the sharded run, not started
	 */
	public static ShardDispatcher create(ApiClient apiClient, ShardingSettings settings, boolean clusterRate,
			Collection<WorkQueueController> controllers, ManagerGate gate, DelayScheduler clock,
			ThreadFactory threadFactory, Duration shutdownTimeout, Duration abandonGrace) {
		Duration budget = settings.timing().leaseDuration().minus(settings.timing().renewDeadline());
		for (WorkQueueController controller : controllers) {
			Duration timeout = controller.definition().reconcileTimeout();
			if (timeout.isZero() || timeout.compareTo(budget) >= 0) {
				throw new IllegalArgumentException("Controller '" + controller.name() + "' has a reconcile timeout of "
						+ (timeout.isZero() ? "none" : timeout)
						+ ", but with sharding it must be below the lease duration ("
						+ settings.timing().leaseDuration() + ") minus the renew deadline ("
						+ settings.timing().renewDeadline()
						+ "), so that a reconcile ends before another replica can take its partition over");
			}
		}
		ShardDispatcher run = new ShardDispatcher(apiClient, settings, clusterRate, controllers, gate, clock, clock,
				threadFactory, shutdownTimeout, abandonGrace);
		controllers.forEach((controller) -> controller.keyOwnership(run.table()));
		return run;
	}

	PartitionTable table() {
		return this.table;
	}

	/**
	 * Return the coordinator of this replica's partitions.
	 * @return the coordinator
	 */
	public ShardCoordinator coordinator() {
		return this.coordinator;
	}

	/**
	 * Start the rounds on a thread of their own.
	 */
	public void start() {
		this.running = true;
		this.thread = this.threadFactory.newThread(this::loop);
		this.thread.setName("kube-reconciler-sharding");
		this.thread.start();
	}

	private void loop() {
		int failures = 0;
		while (this.running) {
			try {
				this.coordinator.round();
				if (failures > 0) {
					logger.info("Sharding rounds succeed again after {} failed round(s)", failures);
				}
				failures = 0;
			}
			catch (Exception ex) {
				if (!this.running) {
					return;
				}
				failures++;
				// an outage fails every round: the stack trace once, then the message
				if (failures == 1 || logger.isDebugEnabled()) {
					logger.warn("Sharding round failed; dispatch stops for partitions not renewed within {}",
							this.settings.timing().renewDeadline(), ex);
				}
				else {
					logger.warn("Sharding round failed again ({} in a row): {}", failures, ex.toString());
				}
			}
			try {
				this.sleeper.sleep(this.settings.timing().retryPeriod().toNanos());
			}
			catch (InterruptedException ex) {
				if (!this.running) {
					return;
				}
			}
		}
	}

	/**
	 * Stop the rounds, then hand every partition over and leave the group. Called after
	 * the controllers stopped, so that their in-flight reconciles ran under renewed
	 * Leases.
	 */
	public void stop() {
		this.running = false;
		Thread thread = this.thread;
		if (thread != null) {
			thread.interrupt();
			try {
				thread.join(this.settings.timing().leaseDuration().toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.coordinator.leave(() -> this.sleeper.sleep(Duration.ofMillis(20).toNanos()));
	}

	@Override
	public void acquired(int partition) {
		Partitioner partitioner = this.table.partitioner();
		for (WorkQueueController controller : this.controllers) {
			for (Request key : controller.cachedKeys()) {
				if (partitioner.partitionOf(key) == partition) {
					controller.enqueue(key);
				}
			}
		}
	}

	@Override
	public void membersChanged(List<String> members) {
		if (this.bucket != null) {
			RateShare share = RateShare.of(this.clusterQps, this.clusterBurst, members, this.settings.identity());
			this.bucket.setRate(share.qps());
			this.bucket.setBurst(share.burst());
			logger.info("Manager bucket retuned to {} qps, burst {}, for {} member(s)", share.qps(), share.burst(),
					members.size());
		}
	}

	/**
	 * Return how many cached keys of each controller fall in each held partition.
	 * @return the key counts by partition, then by controller
	 */
	public Map<Integer, Map<String, Integer>> keyCounts() {
		Map<Integer, Map<String, Integer>> counts = new TreeMap<>();
		List<Integer> held = this.table.held();
		held.forEach((partition) -> counts.put(partition, new LinkedHashMap<>()));
		Partitioner partitioner = this.table.partitioner();
		for (WorkQueueController controller : this.controllers) {
			held.forEach((partition) -> Objects.requireNonNull(counts.get(partition)).put(controller.name(), 0));
			for (Request key : controller.cachedKeys()) {
				Map<String, Integer> byController = counts.get(partitioner.partitionOf(key));
				if (byController != null) {
					byController.merge(controller.name(), 1, Integer::sum);
				}
			}
		}
		return counts;
	}

}
