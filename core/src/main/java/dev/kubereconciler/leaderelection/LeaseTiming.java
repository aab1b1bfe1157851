package dev.kubereconciler.leaderelection;

import java.time.Duration;
import java.util.Objects;

/**
 * The timings of a {@code coordination.k8s.io/v1} Lease, as client-go's leader election
 * uses them, for leader election and for the Leases of sharding alike.
 *
 * @param leaseDuration how long a lease is valid without renewal, default 15 s
 * @param renewDeadline how long the holder keeps trying to renew before it gives up,
 * default 10 s
 * @param retryPeriod how often candidates try to acquire or renew, default 2 s
 */
public record LeaseTiming(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

	/**
	 * How long a lease is valid without renewal, by default: 15 s, as in
	 * controller-runtime.
	 */
	public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);

	/**
	 * How long the holder keeps trying to renew, by default: 10 s, as in
	 * controller-runtime.
	 */
	public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);

	/**
	 * How often candidates try to acquire or renew, by default: 2 s, as in
	 * controller-runtime.
	 */
	public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

	/**
	 * controller-runtime's timings: 15 s lease, 10 s renew deadline, 2 s retry period.
	 */
	public static final LeaseTiming DEFAULTS = new LeaseTiming(DEFAULT_LEASE_DURATION, DEFAULT_RENEW_DEADLINE,
			DEFAULT_RETRY_PERIOD);

	/**
	 * Check the timings: each positive, and each shorter than the one before it.
	 * @throws IllegalArgumentException if a timing is missing, not positive, or not
	 * shorter than the one it must stay under
	 */
	public LeaseTiming {
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

	private static boolean isPositive(Duration duration) {
		return Objects.nonNull(duration) && !duration.isNegative() && !duration.isZero();
	}

}
