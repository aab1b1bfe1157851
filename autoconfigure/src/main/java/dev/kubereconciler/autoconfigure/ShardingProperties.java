package dev.kubereconciler.autoconfigure;

import java.time.Duration;

/**
 * Sharding settings: keys split across replicas by partition, each partition held through
 * a coordination.k8s.io/v1 Lease.
 */
public class ShardingProperties {

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
	private String leasePrefix;

	/**
	 * Namespace of the Leases. Defaults to the pod's namespace, else "default".
	 */
	private String leaseNamespace;

	/**
	 * How long a Lease is valid without renewal; another replica takes a dead replica's
	 * partitions over after it.
	 */
	private Duration leaseDuration = Duration.ofSeconds(30);

	/**
	 * How long after its last renewal a partition's keys are still dispatched. Reconcile
	 * timeouts must be below lease-duration minus renew-deadline.
	 */
	private Duration renewDeadline = Duration.ofSeconds(10);

	/**
	 * How often a replica renews its Leases, observes the others' and acquires
	 * partitions.
	 */
	private Duration retryPeriod = Duration.ofSeconds(2);

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

	public String getLeasePrefix() {
		return this.leasePrefix;
	}

	public void setLeasePrefix(String leasePrefix) {
		this.leasePrefix = leasePrefix;
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
