package dev.kubereconciler.sharding;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * One replica's share of a cluster-wide token bucket: {@code qps/N} and {@code burst/N}
 * over the {@code N} live members, rounded so that the shares never add up to more than
 * the configured rate.
 *
 * <p>
 * The rate is rounded down to a micro-query per second. The burst is split into whole
 * tokens; the {@code burst mod N} tokens left over go one each to the first members in
 * identity order, so the bursts add up to exactly the configured burst. A bucket needs a
 * burst of at least one, so when there are more members than burst tokens every member
 * still gets one, and only then do the bursts add up to more (to {@code N}).
 *
 * @param qps this replica's rate
 * @param burst this replica's burst
 */
public record RateShare(double qps, int burst) {

	private static final double MICRO = 1_000_000d;

	/**
	 * Compute a member's share.
	 * @param qps the cluster-wide rate
	 * @param burst the cluster-wide burst
	 * @param members the live members, including {@code self}
	 * @param self this replica's identity
	 * @return the share
	 */
	public static RateShare of(double qps, int burst, Collection<String> members, String self) {
		TreeSet<String> all = new TreeSet<>(members);
		all.add(self);
		int n = all.size();
		int index = List.copyOf(all).indexOf(self);
		double share = Double.isInfinite(qps) ? qps : Math.floor(qps / n * MICRO) / MICRO;
		int burstShare = burst / n + ((index < burst % n) ? 1 : 0);
		return new RateShare(share, Math.max(1, burstShare));
	}

}
