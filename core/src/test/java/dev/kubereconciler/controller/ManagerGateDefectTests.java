package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Regression tests for the manager gate under concurrency, on a frozen manual clock: a
 * refused or interrupted wait leaves no debt, a stop during the wait starts no reconcile,
 * and a max wait of centuries does not kill the worker.
 */
class ManagerGateDefectTests {

	private final ManualClock clock = new ManualClock();

	private final List<Request> reconciled = new CopyOnWriteArrayList<>();

	private final List<WorkQueueController> controllers = new ArrayList<>();

	@AfterEach
	void stop() {
		this.controllers.forEach((controller) -> controller.stop(Duration.ZERO));
	}

	@Test
	void interleavedRefusalsLeaveTheBucketAsItWas() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.clock);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), Duration.ofMillis(100));
		gate.admit(gate.reserve());
		// two workers ask before either has handed its key back
		ManagerGate.Pass first = gate.reserve();
		ManagerGate.Pass second = gate.reserve();
		assertThat(first.isGranted()).isFalse();
		assertThat(first.delayNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
		assertThat(second.isGranted()).isFalse();
		gate.giveBack(first);
		gate.giveBack(second);
		assertThat(bucket.tokens()).isEqualTo(0.0);
		assertThat(gate.admitted()).isEqualTo(1);
	}

	@Test
	void passesGivenBackOldestFirstReturnEveryToken() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.clock);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), null);
		gate.admit(gate.reserve());
		List<ManagerGate.Pass> waiting = List.of(gate.reserve(), gate.reserve(), gate.reserve());
		assertThat(bucket.tokens()).isEqualTo(-3.0);
		// a stop wakes the waiters in any order; oldest first is the order that used
		// to strand
		waiting.forEach(gate::giveBack);
		assertThat(bucket.tokens()).isEqualTo(0.0);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(gate.reserve().delayNanos()).isZero();
	}

	@Test
	void keysRefusedByMaxWaitLeaveNoDebtWhateverTheInterleavingOfWorkers() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.clock);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), Duration.ofMillis(100));
		WorkQueueController controller = start(gate, 8);
		int keys = 20;
		for (int i = 0; i < keys; i++) {
			controller.enqueue(new Request("ns", "key-" + i));
		}
		// time stands still: one key takes the only token, every other one is refused and
		// waits in the queue for the second the bucket needs
		await().until(() -> this.reconciled.size() == 1 && controller.queue().waiting() == keys - 1);
		assertThat(this.reconciled).hasSize(1);
		assertThat(gate.admitted()).isEqualTo(1);
		assertThat(bucket.tokens()).isEqualTo(0.0);
	}

	@Test
	void workersInterruptedAtTheGateByStopGiveAllTheirTokensBack() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.clock);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), null);
		WorkQueueController controller = start(gate, 6);
		for (int i = 0; i < 6; i++) {
			controller.enqueue(new Request("ns", "key-" + i));
		}
		await().until(() -> this.reconciled.size() == 1 && this.clock.sleeping() == 5);
		assertThat(bucket.tokens()).isEqualTo(-5.0);
		controller.stop(Duration.ZERO);
		assertThat(this.clock.sleeping()).isZero();
		assertThat(bucket.tokens()).isEqualTo(0.0);
		assertThat(gate.admitted()).isEqualTo(1);
		assertThat(this.reconciled).hasSize(1);
	}

	@Test
	void workerWokenAtTheGateAfterStopBeganDoesNotReconcile() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.clock);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), null);
		WorkQueueController controller = start(gate, 1);
		controller.enqueue(new Request("ns", "first"));
		controller.enqueue(new Request("ns", "second"));
		await().until(() -> this.reconciled.size() == 1 && this.clock.sleeping() == 1);
		AtomicBoolean drained = new AtomicBoolean();
		Thread stopping = new Thread(() -> drained.set(controller.stop(Duration.ofMinutes(1))));
		stopping.start();
		await().until(() -> controller.workQueue().isShuttingDown());
		this.clock.advance(Duration.ofSeconds(1));
		await().until(() -> !stopping.isAlive());
		assertThat(drained).isTrue();
		assertThat(this.reconciled).containsExactly(new Request("ns", "first"));
		assertThat(gate.admitted()).isEqualTo(1);
	}

	@Test
	void maxWaitOfCenturiesMeansNoLimitAndKeepsTheWorker() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.clock);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), Duration.ofDays(365L * 300));
		WorkQueueController controller = start(gate, 1);
		controller.enqueue(new Request("ns", "first"));
		controller.enqueue(new Request("ns", "second"));
		await().until(() -> this.reconciled.size() == 1 && this.clock.sleeping() == 1);
		this.clock.advance(Duration.ofSeconds(1));
		await().until(() -> this.reconciled.size() == 2);
		assertThat(gate.admitted()).isEqualTo(2);
		assertThat(gate.withinMaxWait(Long.MAX_VALUE)).isTrue();
	}

	private WorkQueueController start(ManagerGate gate, int workers) {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("gated")
			.maxConcurrentReconciles(workers)
			.rateLimiter(RateLimiters.none())
			.reconcileTimeout(Duration.ZERO)
			.reconcile((request) -> {
				this.reconciled.add(request);
				return Result.done();
			});
		WorkQueueController controller = StandaloneController.build(definition, this.clock, gate,
				ControllerListener.NONE);
		controller.start();
		this.controllers.add(controller);
		return controller;
	}

}
