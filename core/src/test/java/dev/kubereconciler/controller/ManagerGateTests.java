package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.with;

/**
 * Tests for the {@link ManagerGate} as workers pass it, on a manual clock: admissions
 * across controllers follow the shared bucket exactly, first come first served, and the
 * policy decides which causes pass through it.
 */
class ManagerGateTests {

	private final ManualClock scheduler = new ManualClock();

	private final ManualClock sleeper = this.scheduler;

	private final Map<String, AtomicInteger> admissions = new ConcurrentHashMap<>();

	private final List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());

	private final List<WorkQueueController> controllers = new ArrayList<>();

	private final ControllerListener listener = new ControllerListener() {

		@Override
		public void reconcileStarted(String controller, Request request) {
			ManagerGateTests.this.admissions.computeIfAbsent(controller, (name) -> new AtomicInteger())
				.incrementAndGet();
			ManagerGateTests.this.order.add(controller);
		}

	};

	@AfterEach
	void stop() {
		this.controllers.forEach((controller) -> controller.stop(Duration.ofSeconds(5)));
	}

	@Test
	void admissionsAcrossControllersFollowBurstPlusQpsTimesT() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(5, 5, this.scheduler);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), null);
		for (String name : List.of("a", "b", "c")) {
			WorkQueueController controller = start(name, gate, (request) -> Result.done());
			for (int i = 0; i < 20; i++) {
				controller.enqueue(new Request("ns", name + "-" + i));
			}
		}
		for (int step = 0; step <= 60; step++) {
			// after t = step × 0.2 s: burst + qps × t, until the 60 keys are used up
			int expected = Math.min(60, 5 + step);
			awaitSettled(expected);
			assertThat(total()).isEqualTo(expected);
			this.scheduler.advance(Duration.ofMillis(200));
		}
		assertThat(gate.admitted()).isEqualTo(60);
		assertThat(bucket.tokens()).isEqualTo(5.0);
		assertFirstComeFirstServedAfterTheBurst(5, 20);
	}

	private void assertFirstComeFirstServedAfterTheBurst(int burst, int keysEach) {
		// whoever comes first takes the burst; after it, each worker that passed queues
		// up again behind the others, so admissions rotate among the controllers that
		// have keys left
		List<String> order = List.copyOf(this.order);
		Map<String, Integer> left = new java.util.HashMap<>(Map.of("a", keysEach, "b", keysEach, "c", keysEach));
		for (int i = 0; i < order.size(); i++) {
			if (i >= burst) {
				long contenders = left.values().stream().filter((count) -> count > 0).count();
				List<String> window = order.subList((int) Math.max(burst, i - contenders + 1), i + 1);
				assertThat(window).as("admissions %s", order).doesNotHaveDuplicates();
			}
			left.merge(order.get(i), -1, Integer::sum);
		}
	}

	@Test
	void causesOutsideThePolicyPassWithoutTakingTokens() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.scheduler);
		ManagerGate gate = new ManagerGate(bucket, EnumSet.of(Trigger.RETRY), null);
		WorkQueueController controller = start("a", gate, (request) -> Result.done());
		for (int i = 0; i < 10; i++) {
			controller.enqueue(new Request("ns", "key-" + i));
		}
		await().until(() -> admitted("a") == 10);
		assertThat(gate.admitted()).isZero();
		assertThat(bucket.tokens()).isEqualTo(1.0);
	}

	@Test
	void requeueAfterPassesTheGateWhenThePolicySaysSo() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.scheduler);
		ManagerGate gate = new ManagerGate(bucket, EnumSet.of(Trigger.REQUEUE_AFTER), null);
		AtomicInteger calls = new AtomicInteger();
		WorkQueueController controller = start("a", gate, (request) -> (calls.incrementAndGet() <= 2)
				? Result.requeueAfter(Duration.ofMillis(100)) : Result.done());
		controller.enqueue(new Request("ns", "key"));
		await().until(() -> admitted("a") == 1);
		assertThat(gate.admitted()).isZero();
		this.scheduler.advance(Duration.ofMillis(100));
		await().until(() -> admitted("a") == 2);
		assertThat(gate.admitted()).isEqualTo(1);
		// the bucket took its only token at 100 ms: the second requeue-after, due at 200
		// ms, waits the 900 ms the bucket needs to refill it
		this.scheduler.advance(Duration.ofMillis(100));
		await().until(() -> this.sleeper.sleeping() == 1);
		this.scheduler.advance(Duration.ofMillis(900).minusNanos(1));
		assertThat(admitted("a")).isEqualTo(2);
		this.scheduler.advance(Duration.ofNanos(1));
		await().until(() -> admitted("a") == 3);
		assertThat(gate.admitted()).isEqualTo(2);
	}

	@Test
	void keyThatWouldWaitPastMaxWaitGivesItsTokenBackAndWaitsInTheQueue() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.scheduler);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), Duration.ofMillis(500));
		WorkQueueController controller = start("a", gate, (request) -> Result.done());
		controller.enqueue(new Request("ns", "first"));
		controller.enqueue(new Request("ns", "second"));
		await().until(() -> admitted("a") == 1 && controller.queue().waiting() == 1);
		assertThat(this.sleeper.sleeping()).isZero();
		assertThat(bucket.tokens()).isEqualTo(0.0);
		this.scheduler.advance(Duration.ofSeconds(1));
		await().until(() -> admitted("a") == 2);
		assertThat(gate.admitted()).isEqualTo(2);
	}

	@Test
	void theWaitAtTheGateIsLimiterDelayNotWork() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(1, 1, this.scheduler);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), null);
		List<Long> worked = java.util.Collections.synchronizedList(new ArrayList<>());
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("a")
			.rateLimiter(RateLimiters.none())
			.reconcile((request) -> Result.done());
		ControllerListener listener = new ControllerListener() {

			@Override
			public void reconcileStarted(String controller, Request request) {
				ManagerGateTests.this.listener.reconcileStarted(controller, request);
			}

			@Override
			public QueueObserver<Request> queueObserver(String controller) {
				return new QueueObserver<>() {

					@Override
					public void finished(Request item, long workNanos) {
						worked.add(workNanos);
					}

				};
			}

		};
		WorkQueueController controller = StandaloneController.build(definition, this.scheduler, gate, listener);
		controller.start();
		this.controllers.add(controller);
		controller.enqueue(new Request("ns", "first"));
		controller.enqueue(new Request("ns", "second"));
		await().until(() -> admitted("a") == 1 && this.sleeper.sleeping() == 1);
		this.scheduler.advance(Duration.ofSeconds(1));
		await().until(() -> worked.size() == 2);
		// the second key waited a second at the gate and then reconciled at once
		assertThat(worked).containsExactly(0L, 0L);
	}

	private WorkQueueController start(String name, ManagerGate gate, ReconcileFunction reconciler) {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named(name)
			.rateLimiter(RateLimiters.none())
			.reconcileTimeout(Duration.ZERO)
			.reconcile(reconciler);
		WorkQueueController controller = StandaloneController.build(definition, this.scheduler, gate, this.listener);
		controller.start();
		this.controllers.add(controller);
		return controller;
	}

	private void awaitSettled(int expected) {
		// every controller with keys left has its one worker parked at the gate
		await().until(() -> {
			long withKeysLeft = List.of("a", "b", "c").stream().filter((name) -> admitted(name) < 20).count();
			return total() >= expected && this.sleeper.sleeping() == withKeysLeft;
		});
	}

	private static org.awaitility.core.ConditionFactory await() {
		return with().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).await();
	}

	private int admitted(String controller) {
		AtomicInteger count = this.admissions.get(controller);
		return (count != null) ? count.get() : 0;
	}

	private int total() {
		return this.admissions.values().stream().mapToInt(AtomicInteger::get).sum();
	}

}
