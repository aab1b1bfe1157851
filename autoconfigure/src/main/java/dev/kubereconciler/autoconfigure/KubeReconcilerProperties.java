package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration properties for kube-reconciler.
 */
@ConfigurationProperties("kube-reconciler")
public class KubeReconcilerProperties {

	/**
	 * Whether to run the controllers of @Reconciler methods and ControllerDefinition beans.
	 */
	private boolean enabled = true;

	/**
	 * Whether to start the controllers when the application context refreshes.
	 */
	private boolean autoStartup = true;

	/**
	 * How long in-flight reconciles may take to finish on shutdown before they are interrupted.
	 */
	private Duration shutdownTimeout = Duration.ofSeconds(30);

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
	private final LeaderElection leaderElection = new LeaderElection();

	/**
	 * Sharding of the keys across replicas through coordination.k8s.io/v1 Leases.
	 */
	@NestedConfigurationProperty
	private final ShardingProperties sharding = new ShardingProperties();

	/**
	 * Micrometer metrics.
	 */
	private final Metrics metrics = new Metrics();

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

	public LeaderElection getLeaderElection() {
		return this.leaderElection;
	}

	public ShardingProperties getSharding() {
		return this.sharding;
	}

	public Metrics getMetrics() {
		return this.metrics;
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
		private Duration reconcileTimeout = Duration.ofMinutes(10);

		/**
		 * How long to wait for the informer caches to sync before startup fails.
		 */
		private Duration cacheSyncTimeout = Duration.ofMinutes(2);

		/**
		 * How often every watched object is reconciled again without a change; 0 for never.
		 */
		private Duration resyncPeriod = Duration.ofHours(10);

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

		public RateLimiterProperties getRateLimiter() {
			return this.rateLimiter;
		}

	}

	/**
	 * Manager-level settings.
	 */
	public static class Manager {

		/**
		 * The token bucket that every reconcile of every controller passes before it runs.
		 */
		private final ManagerRateLimiter rateLimiter = new ManagerRateLimiter();

		public ManagerRateLimiter getRateLimiter() {
			return this.rateLimiter;
		}

	}

	/**
	 * The shared manager-level token bucket.
	 */
	public static class ManagerRateLimiter {

		/**
		 * Reconciles per second across all controllers. Unset means unlimited (the bucket is
		 * still reported).
		 */
		private Double qps;

		/**
		 * Reconciles that may start at once. Defaults to qps rounded up (at least 1).
		 */
		private Integer burst;

		/**
		 * Longest a worker waits at the gate; a key that would wait longer gives its token back
		 * and waits in the queue instead. Unset means no limit.
		 */
		private Duration maxWait;

		/**
		 * Which causes of a reconcile pass through the bucket: event, retry, requeue-after.
		 */
		private Set<Cause> appliesTo = EnumSet.allOf(Cause.class);

		/**
		 * Whether qps and burst are each replica's (replica) or the whole cluster's, divided
		 * among the live members when sharding is enabled (cluster).
		 */
		private Scope scope = Scope.REPLICA;

		public Double getQps() {
			return this.qps;
		}

		public void setQps(Double qps) {
			this.qps = qps;
		}

		public Integer getBurst() {
			return this.burst;
		}

		public void setBurst(Integer burst) {
			this.burst = burst;
		}

		public Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
		}

		public Set<Cause> getAppliesTo() {
			return this.appliesTo;
		}

		public void setAppliesTo(Set<Cause> appliesTo) {
			this.appliesTo = appliesTo;
		}

		public Scope getScope() {
			return this.scope;
		}

		public void setScope(Scope scope) {
			this.scope = scope;
		}

	}

	/**
	 * Whose rate the manager bucket's qps and burst are.
	 */
	public enum Scope {

		/**
		 * Each replica's own rate.
		 */
		REPLICA,

		/**
		 * The whole cluster's rate: with sharding, each replica gets qps/N and burst/N of the N
		 * live members, retuned when they change.
		 */
		CLUSTER

	}

	/**
	 * Why a key was added to a work queue.
	 */
	public enum Cause {

		/**
		 * A watch event: add, update, delete or resync.
		 */
		EVENT,

		/**
		 * A rate-limited retry after an error or Result.requeue().
		 */
		RETRY,

		/**
		 * A Result.requeueAfter(d).
		 */
		REQUEUE_AFTER

	}

	/**
	 * Leader election settings.
	 */
	public static class LeaderElection {

		/**
		 * Whether only the instance holding the Lease runs controllers.
		 */
		private boolean enabled;

		/**
		 * Name of the Lease. Defaults to "<spring.application.name>-leader", or
		 * "kube-reconciler-leader" without an application name.
		 */
		private String leaseName;

		/**
		 * Namespace of the Lease. Defaults to the pod's namespace, else "default".
		 */
		private String leaseNamespace;

		/**
		 * How long a lease is valid without renewal.
		 */
		private Duration leaseDuration = Duration.ofSeconds(15);

		/**
		 * How long the leader keeps trying to renew before it gives up leadership.
		 */
		private Duration renewDeadline = Duration.ofSeconds(10);

		/**
		 * How often candidates try to acquire or renew the lease.
		 */
		private Duration retryPeriod = Duration.ofSeconds(2);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getLeaseName() {
			return this.leaseName;
		}

		public void setLeaseName(String leaseName) {
			this.leaseName = leaseName;
		}

		public String getLeaseNamespace() {
			return this.leaseNamespace;
		}

		public void setLeaseNamespace(String leaseNamespace) {
			this.leaseNamespace = leaseNamespace;
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
		}

		public Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
		}

	}

	/**
	 * Metrics settings.
	 */
	public static class Metrics {

		/**
		 * Whether to publish controller-runtime's metrics through Micrometer.
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
