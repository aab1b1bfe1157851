package dev.kubereconciler.sharding;

import java.util.Objects;
import java.util.regex.Pattern;

import dev.kubereconciler.leaderelection.LeaseTiming;

/**
 * How replicas shard their keys: the Leases' namespace and name prefix, this replica's
 * identity, the number of partitions and the Lease timings.
 *
 * @param leasePrefix the prefix of every Lease name, also the value of the group label
 * @param leaseNamespace the namespace of the Leases
 * @param identity this replica's identity, unique among live replicas
 * @param partitions the number of partitions, fixed for the life of the cluster
 * @param timing the Leases' timings: how long a Lease is valid without renewal, how long
 * after its last renewal a partition's keys are still dispatched, and how often a replica
 * renews, observes and acquires
 */
public record ShardingSettings(String leasePrefix, String leaseNamespace, String identity, int partitions,
		LeaseTiming timing) {

	private static final Pattern LABEL_VALUE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?");

	public ShardingSettings {
		Objects.requireNonNull(leasePrefix, "leasePrefix must not be null");
		Objects.requireNonNull(leaseNamespace, "leaseNamespace must not be null");
		Objects.requireNonNull(identity, "identity must not be null");
		if (!LABEL_VALUE.matcher(leasePrefix).matches()) {
			throw new IllegalArgumentException("Lease prefix '" + leasePrefix
					+ "' must be at most 40 lower-case letters, digits and '-', starting and ending with a letter or digit");
		}
		if (identity.isBlank()) {
			throw new IllegalArgumentException("identity must not be blank");
		}
		if (partitions < 1 || partitions > 1024) {
			throw new IllegalArgumentException("partitions must be between 1 and 1024, was " + partitions);
		}
		Objects.requireNonNull(timing, "timing must not be null");
	}

	/**
	 * Return the name of a partition's Lease, {@code <prefix>-partition-<n>}.
	 * @param partition the partition
	 * @return the Lease name
	 */
	public String partitionLeaseName(int partition) {
		return this.leasePrefix + "-partition-" + partition;
	}

	/**
	 * Return the name of a member's Lease, {@code <prefix>-member-<identity>}, with the
	 * identity made a valid name: lower-cased, other characters than letters, digits, '-'
	 * and '.' replaced by '-', and a hash of the original appended when that changed it
	 * or it was too long.
	 * @param identity the member's identity
	 * @return the Lease name
	 */
	public String memberLeaseName(String identity) {
		String base = this.leasePrefix + "-member-";
		String cleaned = identity.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
		String name = base + cleaned;
		if (!cleaned.equals(identity) || name.length() > 253
				|| !Character.isLetterOrDigit(name.charAt(name.length() - 1))) {
			String hash = Long
				.toHexString(Partitioner.fnv1a64(identity.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
			name = base + cleaned.substring(0, Math.min(cleaned.length(), 200)) + "-" + hash;
		}
		return name;
	}

}
