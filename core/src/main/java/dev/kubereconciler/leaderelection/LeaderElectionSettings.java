package dev.kubereconciler.leaderelection;

import java.time.Duration;
import java.util.Objects;

/**
 * Leader election through a {@code coordination.k8s.io/v1} Lease: only the instance that
 * holds the lease runs controllers.
 *
 * @param leaseName the name of the Lease
 * @param leaseNamespace the namespace of the Lease
 * @param identity this instance's identity in the Lease
 * @param leaseDuration how long a lease is valid without renewal, default 15 s
 * @param renewDeadline how long the leader keeps trying to renew before it gives up,
 * default 10 s
 * @param retryPeriod how often candidates try to acquire or renew, default 2 s
 * @param warmup whether a follower starts its informers and syncs their caches before it
 * wins the Lease (a warm standby, as controller-runtime's {@code EnableWarmup}), rather
 * than only once it wins it (a cold standby); default {@code true}
 */
public record LeaderElectionSettings(String leaseName, String leaseNamespace, String identity, Duration leaseDuration,
		Duration renewDeadline, Duration retryPeriod, boolean warmup) {

	/**
	 * How long a lease is valid without renewal, by default: 15 s, as in
	 * controller-runtime.
	 */
	public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);

	/**
	 * How long the leader keeps trying to renew, by default: 10 s, as in
	 * controller-runtime.
	 */
	public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);

	/**
	 * How often candidates try to acquire or renew, by default: 2 s, as in
	 * controller-runtime.
	 */
	public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

	/**
	 * Whether followers keep warm caches, by default: {@code true}, so that a new leader
	 * does not wait for a full list.
	 */
	public static final boolean DEFAULT_WARMUP = true;

	public LeaderElectionSettings {
		Objects.requireNonNull(leaseName, "leaseName must not be null");
		Objects.requireNonNull(leaseNamespace, "leaseNamespace must not be null");
		Objects.requireNonNull(identity, "identity must not be null");
		if (!isPositive(leaseDuration) || !isPositive(renewDeadline) || !isPositive(retryPeriod)) {
			throw new IllegalArgumentException("Lease duration, renew deadline and retry period must be positive");
		}
		if (renewDeadline.compareTo(leaseDuration) >= 0) {
			throw new IllegalArgumentException(
					"renewDeadline (" + renewDeadline + ") must be shorter than leaseDuration (" + leaseDuration + ")");
		}
		if (retryPeriod.compareTo(renewDeadline) >= 0) {
			throw new IllegalArgumentException(
					"retryPeriod (" + retryPeriod + ") must be shorter than renewDeadline (" + renewDeadline + ")");
		}
	}

	/**
	 * Create settings for a warm standby: followers sync their caches before they lead.
	 * @param leaseName the name of the Lease
	 * @param leaseNamespace the namespace of the Lease
	 * @param identity this instance's identity
	 * @param leaseDuration how long a lease is valid without renewal
	 * @param renewDeadline how long the leader keeps trying to renew
	 * @param retryPeriod how often candidates try to acquire or renew
	 */
	public LeaderElectionSettings(String leaseName, String leaseNamespace, String identity, Duration leaseDuration,
			Duration renewDeadline, Duration retryPeriod) {
		this(leaseName, leaseNamespace, identity, leaseDuration, renewDeadline, retryPeriod, DEFAULT_WARMUP);
	}

	/**
	 * Return these settings with a warm or a cold standby.
	 * @param warmup {@code true} for followers that sync their caches before they lead,
	 * {@code false} for followers that start their informers only once they win the Lease
	 * @return the settings
	 */
	public LeaderElectionSettings withWarmup(boolean warmup) {
		return new LeaderElectionSettings(this.leaseName, this.leaseNamespace, this.identity, this.leaseDuration,
				this.renewDeadline, this.retryPeriod, warmup);
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
		return new LeaderElectionSettings(leaseName, leaseNamespace, identity, DEFAULT_LEASE_DURATION,
				DEFAULT_RENEW_DEADLINE, DEFAULT_RETRY_PERIOD);
	}

	private static boolean isPositive(Duration duration) {
		return !duration.isNegative() && !duration.isZero();
	}

}
