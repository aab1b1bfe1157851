package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.leaderelection.LeaseTiming;

/**
 * Sharding settings: keys split across replicas by partition, each partition held through
 * a coordination.k8s.io/v1 Lease.
 */
public class ShardingProperties extends LeaseTimingProperties {

	/**
	 * The Lease timings of sharding: a 30 s lease, a 10 s renew deadline, a 2 s retry
	 * period.
	 */
	static final LeaseTiming DEFAULT_TIMING = new LeaseTiming(Duration.ofSeconds(30), Duration.ofSeconds(10),
			Duration.ofSeconds(2));

	/**
	 * Whether every replica runs the controllers on its share of the keys. Cannot be
	 * combined with leader election.
	 */
	private boolean enabled;

	/**
	 * Number of partitions the keys hash into. Every replica must use the same number;
	 * change it only with all replicas stopped.
	 */
	private int partitions = 32;

	/**
	 * Prefix of the Lease names ("<prefix>-member-<identity>", "<prefix>-partition-<n>").
	 * Defaults to "<spring.application.name>-shard", or "kube-reconciler-shard".
	 */
	private @Nullable String leasePrefix;

	/**
	 * Namespace of the Leases. Defaults to the pod's namespace, else "default".
	 */
	private @Nullable String leaseNamespace;

	public ShardingProperties() {
		super(DEFAULT_TIMING);
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getPartitions() {
		return this.partitions;
	}

	public void setPartitions(int partitions) {
		this.partitions = partitions;
	}

	public @Nullable String getLeasePrefix() {
		return this.leasePrefix;
	}

	public void setLeasePrefix(@Nullable String leasePrefix) {
		this.leasePrefix = leasePrefix;
	}

	public @Nullable String getLeaseNamespace() {
		return this.leaseNamespace;
	}

	public void setLeaseNamespace(@Nullable String leaseNamespace) {
		this.leaseNamespace = leaseNamespace;
	}

}
