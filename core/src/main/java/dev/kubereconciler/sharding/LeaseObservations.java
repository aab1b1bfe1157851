package dev.kubereconciler.sharding;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Predicate;

import io.kubernetes.client.openapi.models.V1Lease;
import org.jspecify.annotations.Nullable;

/**
 * What one replica has seen of its group's Leases, and when by its own ticker: a Lease
 * counts as expired once it was seen unchanged for the lease duration, and a partition
 * Lease that disappeared counts as missing only once it was seen missing that long, so
 * that a Lease deleted by hand is taken no sooner than an unrenewed one.
 */
final class LeaseObservations {

	private final long leaseDurationNanos;

	// a null resourceVersion records a partition Lease seen missing since observedAt
	private final Map<String, Observation> seen = new HashMap<>();

	LeaseObservations(long leaseDurationNanos) {
		this.leaseDurationNanos = leaseDurationNanos;
	}

	/**
	 * Record the Leases of one list, read when the list returned: a partition Lease seen
	 * before and no longer listed is seen missing from now on, a member Lease no longer
	 * listed is forgotten.
	 * @param listed the listed Leases by name
	 * @param partitions which names are partition Leases
	 * @param now the ticker's reading after the list returned
	 */
	void listed(Map<String, V1Lease> listed, Predicate<String> partitions, long now) {
		listed.forEach((name, lease) -> {
			String version = lease.getMetadata().getResourceVersion();
			Observation seen = this.seen.get(name);
			if (seen == null || !version.equals(seen.resourceVersion())) {
				this.seen.put(name, new Observation(version, now));
			}
		});
		Iterator<Map.Entry<String, Observation>> entries = this.seen.entrySet().iterator();
		while (entries.hasNext()) {
			Map.Entry<String, Observation> entry = entries.next();
			if (listed.containsKey(entry.getKey()) || entry.getValue().resourceVersion() == null) {
				continue;
			}
			if (partitions.test(entry.getKey())) {
				entry.setValue(new Observation(null, now));
			}
			else {
				entries.remove();
			}
		}
	}

	/**
	 * Return whether a listed Lease was seen unchanged for the lease duration.
	 * @param name the Lease's name
	 * @param now the ticker's reading after the list returned
	 * @return whether it expired
	 */
	boolean isExpired(String name, long now) {
		Observation seen = this.seen.get(name);
		return seen != null && now - seen.observedAt() >= this.leaseDurationNanos;
	}

	/**
	 * Record that a partition Lease is missing from a list, and return whether this
	 * replica may create it now. A Lease this replica saw before, or never saw while
	 * another replica holds partitions, may be created once it was seen missing for the
	 * lease duration: a holder that this replica cannot see may still reconcile its keys
	 * until then. A Lease never seen while no other replica holds a partition is created
	 * at once, as when the group starts.
	 * @param name the Lease's name
	 * @param othersHold whether the list shows a partition Lease held by another replica
	 * @param removed the ticker's reading after the list that showed it missing returned
	 * @return whether it may be created now
	 */
	boolean mayCreate(String name, boolean othersHold, long removed) {
		Observation seen = this.seen.get(name);
		if (seen != null && seen.resourceVersion() == null) {
			return removed - seen.observedAt() >= this.leaseDurationNanos;
		}
		if (seen == null && !othersHold) {
			return true;
		}
		this.seen.put(name, new Observation(null, removed));
		return false;
	}

	private record Observation(@Nullable String resourceVersion, long observedAt) {
	}

}
