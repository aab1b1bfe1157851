package dev.kubereconciler.actuate;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.sharding.ShardCoordinator;

/**
 * This replica's share of the keys, as the {@code controllers} endpoint shows it.
 *
 * @param identity this replica's identity
 * @param members the live members seen in the last round, this replica included
 * @param partitions the number of partitions
 * @param partitionsHeld the partitions this replica holds
 * @param handingOver the held partitions being handed over to another member
 * @param keys the cached keys of each held partition, by controller
 * @param handovers how many partitions this replica handed over since it started
 */
public record ShardingDescriptor(String identity, List<String> members, int partitions, List<Integer> partitionsHeld,
		List<Integer> handingOver, Map<Integer, Map<String, Integer>> keys, long handovers) {

	/**
	 * Describe a manager's sharding.
	 * @param manager the manager
	 * @return the descriptor, or {@code null} when sharding is off
	 */
	static @Nullable ShardingDescriptor of(ControllerManager manager) {
		ShardCoordinator coordinator = manager.shardCoordinator();
		if (coordinator == null) {
			return null;
		}
		List<Integer> held = coordinator.table().held();
		return new ShardingDescriptor(coordinator.settings().identity(), coordinator.members(),
				coordinator.settings().partitions(), held,
				held.stream().filter(coordinator.table()::isHandingOver).toList(), manager.shardKeyCounts(),
				coordinator.handovers());
	}

}
