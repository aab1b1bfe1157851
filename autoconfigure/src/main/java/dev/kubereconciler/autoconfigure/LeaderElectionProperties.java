package dev.kubereconciler.autoconfigure;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.leaderelection.LeaseTiming;

/**
 * Leader election settings under {@code kube-reconciler.leader-election}: one instance,
 * the holder of a coordination.k8s.io/v1 Lease, runs the controllers.
 */
public class LeaderElectionProperties extends LeaseTimingProperties {

	/**
	 * Whether only the instance holding the Lease runs controllers.
	 */
	private boolean enabled;

	/**
	 * Name of the Lease. Defaults to "<spring.application.name>-leader", or
	 * "kube-reconciler-leader" without an application name.
	 */
	private @Nullable String leaseName;

	/**
	 * Namespace of the Lease. Defaults to the pod's namespace, else "default".
	 */
	private @Nullable String leaseNamespace;

	/**
	 * Whether followers start their informers and sync their caches before they win the
	 * Lease (a warm standby), so that a new leader does not wait for a full list. With
	 * false, a follower lists only once it wins the Lease.
	 */
	private boolean warmup = LeaderElectionSettings.DEFAULT_WARMUP;

	public LeaderElectionProperties() {
		super(LeaseTiming.DEFAULTS);
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getLeaseName() {
		return this.leaseName;
	}

	public void setLeaseName(@Nullable String leaseName) {
		this.leaseName = leaseName;
	}

	public @Nullable String getLeaseNamespace() {
		return this.leaseNamespace;
	}

	public void setLeaseNamespace(@Nullable String leaseNamespace) {
		this.leaseNamespace = leaseNamespace;
	}

	public boolean isWarmup() {
		return this.warmup;
	}

	public void setWarmup(boolean warmup) {
		this.warmup = warmup;
	}

}
