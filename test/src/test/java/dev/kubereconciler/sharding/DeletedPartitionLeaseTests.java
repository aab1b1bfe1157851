package dev.kubereconciler.sharding;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.KeyOwnership.Permit;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for what a partition Lease deleted by hand does, against the real test API
 * server: its holder writes it again, and no other replica creates it before it has seen
 * it missing for the lease duration, so two replicas never reconcile one key at once.
 * Each replica's rounds are run by the test on one manual ticker.
 */
@KubernetesTest
class DeletedPartitionLeaseTests {

	private static final int PARTITIONS = 8;

	private static final Duration LEASE_DURATION = Duration.ofSeconds(15);

	private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);

	private static final AtomicInteger PREFIXES = new AtomicInteger();

	ApiClient client;

	TestNamespace namespace;

	private final ManualClock ticker = new ManualClock(5_000);

	// the namespace is shared by the tests of this class, so each test has its own Leases
	private final String prefix = "deleted-" + PREFIXES.incrementAndGet();

	private final Assignment split = Assignment.compute(List.of("a", "b"), PARTITIONS);

	private final int moving = this.split.partitionsOf("b").get(0);

	@Test
	void aLeaseDeletedDuringAHandoverIsTakenByTheNextHolderOnlyAfterTheLeaseDuration() throws ApiException {
		ShardCoordinator a = replica("a");
		a.round();
		Permit running = a.table().tryDispatch(keyOf(this.moving));
		assertThat(running).isNotNull();
		ShardCoordinator b = replica("b");
		b.round();
		a.round();
		assertThat(a.table().isHandingOver(this.moving)).isTrue();
		deleteLease(this.moving);
		// a's reconcile of the key still runs, and a runs no round any more, as if paused
		b.round();
		assertThat(b.table().holds(this.moving)).as("b created the deleted Lease while a's reconcile ran").isFalse();
		this.ticker.advance(LEASE_DURATION.minusMillis(1));
		b.round();
		assertThat(b.table().holds(this.moving)).as("b took the partition before the lease duration").isFalse();
		assertThat(a.table().tryDispatch(keyOf(this.moving))).isNull();
		this.ticker.advance(Duration.ofMillis(1));
		b.round();
		assertThat(b.table().holds(this.moving)).isTrue();
		running.close();
	}

	@Test
	void theHolderOfADeletedLeaseWritesItAgainAndKeepsItsReconciles() throws ApiException {
		ShardCoordinator a = replica("a");
		a.round();
		int kept = 3;
		Permit running = a.table().tryDispatch(keyOf(kept));
		assertThat(running).isNotNull();
		deleteLease(kept);
		a.round();
		assertThat(a.table().holds(kept)).as("a lost the partition whose Lease was deleted").isTrue();
		assertThat(Thread.interrupted()).as("a interrupted its reconcile").isFalse();
		assertThat(lease(kept).getSpec().getHolderIdentity()).isEqualTo("a");
		running.close();
		assertThat(a.table().tryDispatch(keyOf(kept))).isNotNull();
	}

	@Test
	void aLeaseDeletedDuringAHandoverIsWrittenAgainByItsHolderAndReleasedWhenTheReconcileEnds() throws ApiException {
		ShardCoordinator a = replica("a");
		a.round();
		Permit running = a.table().tryDispatch(keyOf(this.moving));
		ShardCoordinator b = replica("b");
		b.round();
		a.round();
		deleteLease(this.moving);
		b.round();
		a.round();
		assertThat(a.table().isHandingOver(this.moving)).as("a still drains its reconcile").isTrue();
		assertThat(lease(this.moving).getSpec().getHolderIdentity()).isEqualTo("a");
		b.round();
		assertThat(b.table().holds(this.moving)).isFalse();
		running.close();
		a.round();
		assertThat(a.table().holds(this.moving)).isFalse();
		b.round();
		assertThat(b.table().holds(this.moving)).as("b takes the released Lease at once").isTrue();
	}

	@Test
	void aJoinerThatNeverSawADeletedLeaseWaitsTheLeaseDurationBeforeCreatingIt() throws ApiException {
		ShardCoordinator a = replica("a");
		a.round();
		Permit running = a.table().tryDispatch(keyOf(this.moving));
		assertThat(running).isNotNull();
		deleteLease(this.moving);
		ShardCoordinator b = replica("b");
		b.round();
		assertThat(b.table().holds(this.moving)).as("b created a Lease it never saw while a holds the others")
			.isFalse();
		this.ticker.advance(LEASE_DURATION);
		b.round();
		assertThat(b.table().holds(this.moving)).isTrue();
		running.close();
	}

	@Test
	void aReplicaOfAStartingGroupCreatesItsPartitionsAtOnceThoughAnotherMemberLives() throws ApiException {
		// b wrote its member Lease, as in its first round, before a's first list
		ShardingSettings ofB = settings("b");
		new ShardLeases(this.client, ofB, Clock.systemUTC()).create(ofB.memberLeaseName("b"), ShardLeases.MEMBER);
		ShardCoordinator a = replica("a");
		a.round();
		assertThat(a.members()).containsExactly("a", "b");
		assertThat(a.table().held()).containsExactlyElementsOf(this.split.partitionsOf("a"));
	}

	private void deleteLease(int partition) throws ApiException {
		new CoordinationV1Api(this.client)
			.deleteNamespacedLease(this.prefix + "-partition-" + partition, this.namespace.name())
			.execute();
	}

	private V1Lease lease(int partition) throws ApiException {
		return new CoordinationV1Api(this.client)
			.readNamespacedLease(this.prefix + "-partition-" + partition, this.namespace.name())
			.execute();
	}

	private Request keyOf(int partition) {
		Partitioner partitioner = new Partitioner(PARTITIONS);
		for (int i = 0;; i++) {
			Request key = new Request("default", "widget-" + i);
			if (partitioner.partitionOf(key) == partition) {
				return key;
			}
		}
	}

	private ShardingSettings settings(String identity) {
		return new ShardingSettings(this.prefix, this.namespace.name(), identity, PARTITIONS,
				new LeaseTiming(LEASE_DURATION, RENEW_DEADLINE, Duration.ofSeconds(2)));
	}

	private ShardCoordinator replica(String identity) {
		ShardingSettings settings = settings(identity);
		PartitionTable table = new PartitionTable(new Partitioner(PARTITIONS), this.ticker, RENEW_DEADLINE,
				Duration.ofSeconds(30), Duration.ofSeconds(5));
		return new ShardCoordinator(this.client, settings, table, this.ticker, Clock.systemUTC(), ShardListener.NONE);
	}

}
