package dev.kubereconciler.metrics;

import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.sharding.ShardCoordinator;

/**
 * Publishes this replica's share of the keys when sharding is on:
 * {@code kube_reconciler_shard_partitions_held},
 * {@code kube_reconciler_shard_partitions}, {@code kube_reconciler_shard_members} and
 * {@code kube_reconciler_shard_handovers_total}. The partitions held, summed over the
 * replicas, against the partitions there are is the sharded form of client-go's
 * {@code leader_election_master_status}: a partition no replica holds has no leader.
 */
public final class ShardMetrics implements MeterBinder {

	private final Supplier<ShardCoordinator> coordinator;

	/**
	 * Create the binder.
	 * @param coordinator supplies the coordinator, or {@code null} when sharding is off
	 */
	public ShardMetrics(Supplier<@Nullable ShardCoordinator> coordinator) {
		this.coordinator = coordinator;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		// the manager may not exist yet when the binder is bound, so every reading looks
		// it up
		Gauge.builder("kube_reconciler_shard_partitions_held", this, (m) -> m.read((c) -> c.table().held().size()))
			.description("Partitions whose Lease this replica holds, being handed over or not")
			.register(registry);
		Gauge.builder("kube_reconciler_shard_partitions", this, (m) -> m.read((c) -> c.settings().partitions()))
			.description("Partitions the keys are split into, each with a Lease of its own")
			.register(registry);
		Gauge.builder("kube_reconciler_shard_members", this, (m) -> m.read((c) -> c.members().size()))
			.description("Live members of the shard group seen by this replica, itself included")
			.register(registry);
		FunctionCounter.builder("kube_reconciler_shard_handovers", this, (m) -> m.read(ShardCoordinator::handovers))
			.description("Partitions this replica handed over to another member and released")
			.register(registry);
	}

	private double read(ToDoubleFunction<ShardCoordinator> reading) {
		ShardCoordinator coordinator;
		try {
			coordinator = this.coordinator.get();
		}
		catch (IllegalStateException ex) {
			return 0;
		}
		return (coordinator != null) ? reading.applyAsDouble(coordinator) : 0;
	}

}
