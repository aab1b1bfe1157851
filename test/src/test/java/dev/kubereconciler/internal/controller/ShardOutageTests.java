package dev.kubereconciler.internal.controller;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.StandaloneController;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.sharding.PartitionTable;
import dev.kubereconciler.sharding.Partitioner;
import dev.kubereconciler.sharding.ShardCoordinator;
import dev.kubereconciler.sharding.ShardListener;
import dev.kubereconciler.sharding.ShardingSettings;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the keys of a sharded controller while the API server is down: the test stops
 * the real test API server and runs the coordinator's rounds itself on a manual clock,
 * whose time the workers, the queue's delays and the partition table all read.
 */
@KubernetesTest
class ShardOutageTests {

	private static final int PARTITIONS = 8;

	private static final int KEYS = 300;

	private static final Duration RETRY_PERIOD = Duration.ofSeconds(1);

	private static final Duration RENEW_DEADLINE = Duration.ofSeconds(4);

	private static final LeaseTiming TIMING = new LeaseTiming(Duration.ofSeconds(6), RENEW_DEADLINE, RETRY_PERIOD);

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private final ManualClock clock = new ManualClock(5_000);

	private final AtomicInteger dequeued = new AtomicInteger();

	private final AtomicInteger retried = new AtomicInteger();

	private final List<Request> reconciled = new CopyOnWriteArrayList<>();

	private WorkQueueController controller;

	@AfterEach
	void stop() {
		if (this.controller != null) {
			this.controller.stop(Duration.ofSeconds(5));
		}
	}

	@Test
	void keysOfAPartitionPastTheRenewDeadlineWaitForTheCoordinatorWithoutCyclingThroughTheWorkers()
			throws ApiException {
		PartitionTable table = new PartitionTable(new Partitioner(PARTITIONS), this.clock, RENEW_DEADLINE,
				Duration.ofSeconds(30), Duration.ofSeconds(5));
		ShardCoordinator coordinator = new ShardCoordinator(this.client,
				new ShardingSettings("outage", this.namespace.name(), "a", PARTITIONS, TIMING), table, this.clock,
				Clock.systemUTC(), ShardListener.NONE);
		coordinator.round();
		assertThat(table.held()).hasSize(PARTITIONS);
		this.controller = startController(table);
		// every key comes due after the renew deadline, while the API server is down
		for (int i = 0; i < KEYS; i++) {
			this.controller.workQueue()
				.addAfter(new Request("default", "object-" + i), Duration.ofSeconds(5), Trigger.REQUEUE_AFTER);
		}
		int retriedBefore = this.retried.get();
		this.server.stopApiServer();
		try {
			for (int step = 1; step <= 200; step++) {
				this.clock.advance(Duration.ofMillis(100));
				if (step % 10 == 0) {
					assertThatExceptionOfType(ApiException.class).isThrownBy(coordinator::round);
				}
				awaitIdleWorkers();
			}
			assertThat(this.reconciled).isEmpty();
			assertThat(this.dequeued.get()).as("dequeues in 20 s with the API server down: each key once")
				.isEqualTo(KEYS);
			assertThat(this.retried.get() - retriedBefore).as("retries counted while the API server was down").isZero();
		}
		finally {
			this.server.startApiServer();
		}
		coordinator.round();
		this.clock.advance(Duration.ofMillis(100));
		await().atMost(Duration.ofSeconds(30)).until(() -> this.reconciled.size() >= KEYS);
		awaitIdleWorkers();
		assertThat(this.reconciled).as("every key reconciled once after the renewal")
			.hasSize(KEYS)
			.doesNotHaveDuplicates();
	}

	private void awaitIdleWorkers() {
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> this.controller.queue().depth() == 0 && this.controller.queue().inFlight() == 0);
	}

	private WorkQueueController startController(PartitionTable table) {
		ControllerListener listener = new ControllerListener() {

			@Override
			public QueueObserver<Request> queueObserver(String controller) {
				return new QueueObserver<>() {

					@Override
					public void retried(Request item) {
						ShardOutageTests.this.retried.incrementAndGet();
					}

					@Override
					public void dequeued(Request item, long queuedNanos) {
						ShardOutageTests.this.dequeued.incrementAndGet();
					}

				};
			}

		};
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("outage")
			.maxConcurrentReconciles(2)
			.reconcileTimeout(Duration.ofSeconds(1))
			.reconcile((request) -> {
				this.reconciled.add(request);
				return Result.done();
			});
		WorkQueueController controller = StandaloneController.build(definition, this.clock, null, listener);
		controller.keyOwnership(table);
		controller.start();
		return controller;
	}

}
