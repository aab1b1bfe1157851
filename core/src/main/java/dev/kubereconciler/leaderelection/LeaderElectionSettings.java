package dev.kubereconciler.leaderelection;

import java.util.Objects;

/**
 * Leader election through a {@code coordination.k8s.io/v1} Lease: only the instance that
 * holds the lease runs controllers.
 *
 * @param leaseName the name of the Lease
 * @param leaseNamespace the namespace of the Lease
 * @param identity this instance's identity in the Lease
 * @param timing the Lease's timings, default {@link LeaseTiming#DEFAULTS}
 * @param warmup whether a follower starts its informers and syncs their caches before it
 * wins the Lease (a warm standby, as controller-runtime's {@code EnableWarmup}), rather
 * than only once it wins it (a cold standby); default {@code true}
 */
public record LeaderElectionSettings(String leaseName, String leaseNamespace, String identity, LeaseTiming timing,
		boolean warmup) {

	/**
	 * Whether followers keep warm caches, by default: {@code true}, so that a new leader
	 * does not wait for a full list.
	 */
	public static final boolean DEFAULT_WARMUP = true;

	public LeaderElectionSettings {
		Objects.requireNonNull(leaseName, "leaseName must not be null");
		Objects.requireNonNull(leaseNamespace, "leaseNamespace must not be null");
		Objects.requireNonNull(identity, "identity must not be null");
		Objects.requireNonNull(timing, "timing must not be null");
	}

	/**
	 * Create settings for a warm standby: followers sync their caches before they lead.
	 * @param leaseName the name of the Lease
	 * @param leaseNamespace the namespace of the Lease
	 * @param identity this instance's identity
	 * @param timing the Lease's timings
	 */
	public LeaderElectionSettings(String leaseName, String leaseNamespace, String identity, LeaseTiming timing) {
		this(leaseName, leaseNamespace, identity, timing, DEFAULT_WARMUP);
	}

	/**
	 * Return these settings with a warm or a cold standby.
	 * @param warmup {@code true} for followers that sync their caches before they lead,
	 * {@code false} for followers that start their informers only once they win the Lease
	 * @return the settings
	 */
	public LeaderElectionSettings withWarmup(boolean warmup) {
		return new LeaderElectionSettings(this.leaseName, this.leaseNamespace, this.identity, this.timing, warmup);
	}

	/**
	 * Return settings with controller-runtime's default timings: 15 s lease, 10 s renew
	 * deadline, 2 s retry period, and a warm standby.
	 * @param leaseName the name of the Lease
	 * @param leaseNamespace the namespace of the Lease
	 * @param identity this instance's identity
	 * @return the settings
	 */
	public static LeaderElectionSettings of(String leaseName, String leaseNamespace, String identity) {
		return new LeaderElectionSettings(leaseName, leaseNamespace, identity, LeaseTiming.DEFAULTS);
	}

}
