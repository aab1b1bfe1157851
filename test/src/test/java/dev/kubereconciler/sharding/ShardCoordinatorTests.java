package dev.kubereconciler.sharding;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.time.ManualClock;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.KeyOwnership.Permit;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ShardCoordinator} against the real test API server. Each replica's
 * rounds are run by the test, one at a time, on a manual ticker, so that every step of an
 * acquisition, a handover and a takeover can be checked.
 */
@KubernetesTest
class ShardCoordinatorTests {

	private static final int PARTITIONS = 8;

	private static final Duration LEASE_DURATION = Duration.ofSeconds(15);

	private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private final ManualClock ticker = new ManualClock(5_000);

	private final List<Replica> replicas = new ArrayList<>();

	// the namespace is shared by the tests of this class, so each test has its own Leases
	private final String prefix = "shards-" + PREFIXES.incrementAndGet();

	private static final AtomicInteger PREFIXES = new AtomicInteger();

	@Test
	void aLoneReplicaAcquiresEveryPartitionAndNamesTheLeases() throws ApiException {
		Replica a = replica("a");
		a.round();
		assertThat(a.table().held()).hasSize(PARTITIONS);
		assertThat(a.events).hasSize(PARTITIONS).allMatch((event) -> event.startsWith("acquired"));
		assertThat(a.coordinator.members()).containsExactly("a");
		List<String> names = new CoordinationV1Api(this.client).listNamespacedLease(this.namespace.name())
			.execute()
			.getItems()
			.stream()
			.map((lease) -> lease.getMetadata().getName())
			.sorted()
			.toList();
		assertThat(names).filteredOn((name) -> name.startsWith(this.prefix + "-"))
			.containsExactly(this.prefix + "-member-a", this.prefix + "-partition-0", this.prefix + "-partition-1",
					this.prefix + "-partition-2", this.prefix + "-partition-3", this.prefix + "-partition-4",
					this.prefix + "-partition-5", this.prefix + "-partition-6", this.prefix + "-partition-7");
	}

	@Test
	void aJoiningReplicaGetsItsShareThroughAHandoverWithoutOverlap() throws ApiException {
		Replica a = replica("a");
		a.round();
		Replica b = replica("b");
		b.round();
		assertNoOverlap();
		assertThat(b.table().held()).as("b waits for a to release").isEmpty();
		assertThat(b.coordinator.members()).containsExactly("a", "b");
		a.round();
		assertNoOverlap();
		assertThat(a.table().held()).hasSize(PARTITIONS / 2);
		assertThat(a.coordinator.handovers()).isEqualTo(PARTITIONS / 2);
		b.round();
		assertNoOverlap();
		assertThat(b.table().held()).hasSize(PARTITIONS / 2);
		Assignment expected = Assignment.compute(List.of("a", "b"), PARTITIONS);
		assertThat(b.table().held()).containsExactlyElementsOf(expected.partitionsOf("b"));
		// nothing moves any more
		for (int i = 0; i < 3; i++) {
			a.round();
			b.round();
		}
		assertThat(a.table().held()).containsExactlyElementsOf(expected.partitionsOf("a"));
		assertThat(b.table().held()).containsExactlyElementsOf(expected.partitionsOf("b"));
		assertThat(a.coordinator.handovers()).isEqualTo(PARTITIONS / 2);
	}

	@Test
	void aHandoverKeepsTheLeaseUntilTheInFlightReconcileReturns() throws ApiException {
		Replica a = replica("a");
		a.round();
		Assignment split = Assignment.compute(List.of("a", "b"), PARTITIONS);
		int moving = split.partitionsOf("b").get(0);
		Request key = keyOf(moving);
		Permit running = a.table().tryDispatch(key);
		assertThat(running).isNotNull();
		Replica b = replica("b");
		b.round();
		a.round();
		assertThat(a.table().holds(moving)).isTrue();
		assertThat(a.table().tryDispatch(key)).as("no new dispatch while handing over").isNull();
		b.round();
		assertThat(b.table().holds(moving)).isFalse();
		running.close();
		a.round();
		assertThat(a.table().holds(moving)).isFalse();
		b.round();
		assertThat(b.table().holds(moving)).isTrue();
		assertThat(b.table().tryDispatch(key)).isNotNull();
	}

	@Test
	void aDeadReplicasPartitionsAreTakenOverOnlyAfterTheLeaseDuration() throws ApiException {
		Replica a = replica("a");
		Replica b = replica("b");
		for (int i = 0; i < 3; i++) {
			a.round();
			b.round();
		}
		List<Integer> ofB = b.table().held();
		assertThat(ofB).hasSize(PARTITIONS / 2);
		// b stops running rounds, as if killed; a sees its last renewal now, and counts
		// expiry from when it saw it, not from the time written in the Lease
		a.round();
		this.ticker.advance(LEASE_DURATION.minusMillis(1));
		a.round();
		assertThat(a.table().held()).hasSize(PARTITIONS / 2);
		assertThat(b.table().tryDispatch(keyOf(ofB.get(0))))
			.as("b, were it only paused, stopped dispatching at the renew deadline by its own clock")
			.isNull();
		this.ticker.advance(Duration.ofMillis(1));
		a.round();
		assertThat(a.coordinator.members()).containsExactly("a");
		assertThat(a.table().held()).hasSize(PARTITIONS);
		assertThat(a.events).contains("acquired " + ofB.get(0));
	}

	@Test
	void aReplicaThatFindsAnotherHolderInItsLeaseStopsAtOnce() throws ApiException {
		Replica a = replica("a");
		a.round();
		InFlight running = new InFlight(a.table(), keyOf(3));
		CoordinationV1Api api = new CoordinationV1Api(this.client);
		V1Lease lease = api.readNamespacedLease(this.prefix + "-partition-3", this.namespace.name()).execute();
		lease.getSpec().holderIdentity("intruder");
		api.replaceNamespacedLease(this.prefix + "-partition-3", this.namespace.name(), lease).execute();
		a.round();
		assertThat(a.table().holds(3)).isFalse();
		assertThat(a.events).contains("lost 3");
		await().atMost(Duration.ofSeconds(10)).until(running::wasInterrupted);
		running.join();
		assertThat(a.table().inFlight(3)).isZero();
	}

	@Test
	void aLeavingReplicaReleasesEverythingAndTheOthersTakeOverAtOnce() throws ApiException {
		Replica a = replica("a");
		Replica b = replica("b");
		for (int i = 0; i < 3; i++) {
			a.round();
			b.round();
		}
		b.coordinator.leave(() -> {
			throw new AssertionError("nothing was in flight");
		});
		assertThat(b.table().held()).isEmpty();
		assertThat(b.events).filteredOn((event) -> event.startsWith("handedOver")).hasSize(PARTITIONS / 2);
		a.round();
		assertThat(a.coordinator.members()).containsExactly("a");
		assertThat(a.table().held()).hasSize(PARTITIONS);
	}

	@Test
	void aLeaseRenewedWhileTheListWasSlowExpiresALeaseDurationAfterTheListReturned() throws ApiException {
		AtomicReference<Runnable> duringNextList = new AtomicReference<>();
		ApiClient slowList = this.server.apiClient();
		slowList.setHttpClient(slowList.getHttpClient().newBuilder().addInterceptor((chain) -> {
			boolean list = chain.request().method().equals("GET")
					&& chain.request().url().encodedPath().endsWith("/leases");
			Runnable action = list ? duringNextList.getAndSet(null) : null;
			if (action != null) {
				action.run();
			}
			return chain.proceed(chain.request());
		}).build());
		Replica a = replica("a", slowList);
		Replica b = replica("b");
		for (int i = 0; i < 3; i++) {
			a.round();
			b.round();
		}
		List<Integer> ofB = b.table().held();
		assertThat(ofB).hasSize(PARTITIONS / 2);
		// a's round starts; before its list is answered 2 s pass and b renews
		// everything, then b stops running rounds, as if killed
		duringNextList.set(() -> {
			this.ticker.advance(Duration.ofSeconds(2));
			try {
				b.round();
			}
			catch (ApiException ex) {
				throw new IllegalStateException(ex);
			}
		});
		a.round();
		assertThat(duringNextList.get()).as("the list ran the action").isNull();
		// b's renewals may have been sent 2 s after a's round started: counting from the
		// start of the round would take b's partitions 2 s early
		this.ticker.advance(LEASE_DURATION.minusMillis(1));
		a.round();
		assertThat(a.table().held()).hasSize(PARTITIONS / 2);
		this.ticker.advance(Duration.ofMillis(1));
		a.round();
		assertThat(a.coordinator.members()).containsExactly("a");
		assertThat(a.table().held()).hasSize(PARTITIONS);
	}

	@Test
	void theHoldListenerBracketsEveryReconcileOfAPartition() throws ApiException {
		Replica a = replica("a");
		List<String> holds = new CopyOnWriteArrayList<>();
		a.table().holdListener(new PartitionHoldListener() {

			@Override
			public void held(int partition) {
				holds.add("held " + partition + " " + a.table().inFlight(partition));
			}

			@Override
			public void freed(int partition, boolean lost) {
				holds.add((lost ? "lost " : "freed ") + partition + " " + a.table().inFlight(partition));
			}

		});
		a.round();
		assertThat(holds).hasSize(PARTITIONS).allMatch((event) -> event.startsWith("held "));
		Assignment split = Assignment.compute(List.of("a", "b"), PARTITIONS);
		int moving = split.partitionsOf("b").get(0);
		Permit running = a.table().tryDispatch(keyOf(moving));
		Replica b = replica("b");
		b.round();
		a.round();
		assertThat(a.table().isHandingOver(moving)).isTrue();
		assertThat(holds).as("not freed while a reconcile of it runs")
			.noneMatch((event) -> event.startsWith("freed " + moving + " "));
		running.close();
		a.round();
		assertThat(holds).filteredOn((event) -> event.startsWith("freed "))
			.hasSize(PARTITIONS / 2)
			.contains("freed " + moving + " 0");
		int kept = split.partitionsOf("a").get(0);
		CoordinationV1Api api = new CoordinationV1Api(this.client);
		V1Lease lease = api.readNamespacedLease(this.prefix + "-partition-" + kept, this.namespace.name()).execute();
		lease.getSpec().holderIdentity("intruder");
		api.replaceNamespacedLease(this.prefix + "-partition-" + kept, this.namespace.name(), lease).execute();
		a.round();
		assertThat(holds).contains("lost " + kept + " 0");
	}

	private void assertNoOverlap() {
		for (int p = 0; p < PARTITIONS; p++) {
			int holders = 0;
			for (Replica replica : this.replicas) {
				holders += replica.table().holds(p) ? 1 : 0;
			}
			assertThat(holders).as("holders of partition %d", p).isLessThanOrEqualTo(1);
		}
	}

	/**
	 * A reconcile in flight on its own thread, until it is interrupted.
	 */
	private static final class InFlight {

		private final CountDownLatch started = new CountDownLatch(1);

		private final AtomicBoolean interrupted = new AtomicBoolean();

		private final Thread thread;

		InFlight(PartitionTable table, Request key) {
			this.thread = new Thread(() -> {
				try (Permit permit = table.tryDispatch(key)) {
					assertThat(permit).isNotNull();
					this.started.countDown();
					new CountDownLatch(1).await();
				}
				catch (InterruptedException ex) {
					this.interrupted.set(true);
				}
			});
			this.thread.setDaemon(true);
			this.thread.start();
			try {
				assertThat(this.started.await(10, TimeUnit.SECONDS)).isTrue();
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		}

		boolean wasInterrupted() {
			return this.interrupted.get();
		}

		void join() {
			try {
				this.thread.join(10_000);
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		}

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

	private Replica replica(String identity) {
		return replica(identity, this.client);
	}

	private Replica replica(String identity, ApiClient client) {
		ShardingSettings settings = new ShardingSettings(this.prefix, this.namespace.name(), identity, PARTITIONS,
				new LeaseTiming(LEASE_DURATION, RENEW_DEADLINE, Duration.ofSeconds(2)));
		PartitionTable table = new PartitionTable(new Partitioner(PARTITIONS), this.ticker, RENEW_DEADLINE,
				Duration.ofSeconds(30), Duration.ofSeconds(5));
		List<String> events = new CopyOnWriteArrayList<>();
		ShardListener listener = new ShardListener() {

			@Override
			public void acquired(int partition) {
				events.add("acquired " + partition);
			}

			@Override
			public void handedOver(int partition) {
				events.add("handedOver " + partition);
			}

			@Override
			public void lost(int partition) {
				events.add("lost " + partition);
			}

		};
		Replica replica = new Replica(
				new ShardCoordinator(client, settings, table, this.ticker, Clock.systemUTC(), listener), events);
		this.replicas.add(replica);
		return replica;
	}

	private record Replica(ShardCoordinator coordinator, List<String> events) {

		void round() throws ApiException {
			this.coordinator.round();
		}

		PartitionTable table() {
			return this.coordinator.table();
		}

	}

}
