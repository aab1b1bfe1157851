package dev.kubereconciler.sharding;

/**
 * Told, under the partition's lock, when this replica starts and stops holding a
 * partition: {@link #held} before the first dispatch of its keys can be allowed,
 * {@link #freed} after the last one ended (or was interrupted, when lost) and before the
 * Lease is released, so a record of these calls brackets every reconcile this replica
 * runs of the partition. Calls must be quick and must not call back into the table.
 */
public interface PartitionHoldListener {

	/**
	 * A listener that does nothing.
	 */
	PartitionHoldListener NONE = new PartitionHoldListener() {
	};

	/**
	 * This replica now holds a partition.
	 * @param partition the partition
	 */
	default void held(int partition) {
	}

	/**
	 * This replica no longer holds a partition.
	 * @param partition the partition
	 * @param lost {@code true} if it was lost (another holder, or renewal failed past the
	 * deadline) rather than handed over; its interrupted reconciles may still be
	 * returning
	 */
	default void freed(int partition, boolean lost) {
	}

}
