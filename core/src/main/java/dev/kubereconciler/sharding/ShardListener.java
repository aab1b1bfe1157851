package dev.kubereconciler.sharding;

import java.util.List;

/**
 * Told what the {@link ShardCoordinator} does, so that the controllers can enqueue the
 * keys of an acquired partition, retune a cluster-wide bucket, and publish metrics.
 */
public interface ShardListener {

	/**
	 * A listener that does nothing.
	 */
	ShardListener NONE = new ShardListener() {
	};

	/**
	 * The set of live members changed; called once at the first round too.
	 * @param members the live members' identities, sorted, this replica included
	 */
	default void membersChanged(List<String> members) {
	}

	/**
	 * This replica acquired a partition; its keys may now be dispatched here.
	 * @param partition the partition
	 */
	default void acquired(int partition) {
	}

	/**
	 * This replica handed a partition over and released its Lease.
	 * @param partition the partition
	 */
	default void handedOver(int partition) {
	}

	/**
	 * This replica lost a partition without a handover: its renewal failed past the renew
	 * deadline, or another replica took the Lease.
	 * @param partition the partition
	 */
	default void lost(int partition) {
	}

}
