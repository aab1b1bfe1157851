package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.DelayScheduler;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link WorkQueueController}'s outcome handling: one test per row of
 * controller-runtime's reconcileHandler table, with real worker threads.
 */
class ControllerOutcomeTests {

	private static final Request KEY = new Request("default", "a");

	private final RecordingRateLimiter limiter = new RecordingRateLimiter(Duration.ZERO);

	private final ConcurrentLinkedQueue<ReconcileOutcome> outcomes = new ConcurrentLinkedQueue<>();

	private final ControllerListener listener = new ControllerListener() {

		@Override
		public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
				Throwable error) {
			ControllerOutcomeTests.this.outcomes.add(outcome);
		}

	};

	private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

	private final DelayScheduler system = DelayScheduler.of(this.executor);

	private WorkQueueController controller;

	@AfterEach
	void stop() {
		if (this.controller != null) {
			this.controller.stop(Duration.ofSeconds(5));
		}
		this.executor.shutdownNow();
	}

	private WorkQueueController start(ReconcileFunction reconciler, DelayScheduler scheduler, Duration timeout) {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("test")
			.rateLimiter(this.limiter)
			.reconcileTimeout(timeout)
			.reconcile(reconciler);
		this.controller = StandaloneController.build(definition, scheduler, null, this.listener);
		this.controller.start();
		return this.controller;
	}

	@Test
	void successForgetsTheKey() {
		start((request) -> Result.done(), this.system, Duration.ZERO).enqueue(KEY);
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(this.limiter.calls).containsExactly("forget default/a");
	}

	@Test
	void exceptionRequeuesRateLimited() {
		AtomicInteger calls = new AtomicInteger();
		start((request) -> {
			if (calls.incrementAndGet() == 1) {
				throw new IllegalStateException("boom");
			}
			return Result.done();
		}, this.system, Duration.ZERO).enqueue(KEY);
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.ERROR, ReconcileOutcome.SUCCESS);
		assertThat(this.limiter.calls).containsExactly("when default/a", "forget default/a");
	}

	@Test
	void requeueRequeuesRateLimited() {
		AtomicInteger calls = new AtomicInteger();
		start((request) -> (calls.incrementAndGet() == 1) ? Result.requeue() : Result.done(), this.system,
				Duration.ZERO)
			.enqueue(KEY);
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.REQUEUE, ReconcileOutcome.SUCCESS);
		assertThat(this.limiter.calls).containsExactly("when default/a", "forget default/a");
	}

	@Test
	void requeueAfterForgetsBackoffAndWaitsExactly() {
		ManualClock scheduler = new ManualClock();
		AtomicInteger calls = new AtomicInteger();
		WorkQueueController controller = start((request) -> (calls.incrementAndGet() == 1)
				? Result.requeueAfter(Duration.ofMillis(20)) : Result.done(), scheduler, Duration.ZERO);
		controller.enqueue(KEY);
		await().until(() -> this.outcomes.contains(ReconcileOutcome.REQUEUE_AFTER));
		assertThat(this.limiter.calls).containsExactly("forget default/a");
		await().until(() -> controller.queue().waiting() == 1);
		scheduler.advance(Duration.ofMillis(20).minusNanos(1));
		assertThat(controller.queue().waiting()).isEqualTo(1);
		assertThat(controller.queue().depth()).isZero();
		scheduler.advance(Duration.ofNanos(1));
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(calls).hasValue(2);
		assertThat(this.limiter.calls).containsExactly("forget default/a", "forget default/a");
	}

	@Test
	void requeueAfterKeepsThePriorityTheKeyWasTakenWith() {
		ManualClock scheduler = new ManualClock();
		WorkQueueController controller = start((request) -> Result.requeueAfter(Duration.ofMillis(20)), scheduler,
				Duration.ZERO);
		controller.add(KEY, Priorities.LOW);
		await().until(() -> controller.queue().waiting() == 1);
		controller.pause();
		scheduler.advance(Duration.ofMillis(20));
		await().until(() -> controller.queue().depthByPriority().equals(Map.of(Priorities.LOW, 1)));
	}

	@Test
	void resultWithPrioritySetsThePriorityOfTheRequeue() {
		ManualClock scheduler = new ManualClock();
		WorkQueueController controller = start((request) -> Result.requeueAfter(Duration.ofMillis(20)).withPriority(5),
				scheduler, Duration.ZERO);
		controller.add(KEY, Priorities.LOW);
		await().until(() -> controller.queue().waiting() == 1);
		controller.pause();
		scheduler.advance(Duration.ofMillis(20));
		await().until(() -> controller.queue().depthByPriority().equals(Map.of(5, 1)));
	}

	@Test
	void rateLimitedRetryKeepsThePriorityTheKeyWasTakenWith() {
		AtomicReference<WorkQueueController> started = new AtomicReference<>();
		WorkQueueController controller = start((request) -> {
			// paused before the retry is added, so that the retry stays in the queue
			started.get().pause();
			throw new IllegalStateException("boom");
		}, this.system, Duration.ZERO);
		started.set(controller);
		controller.add(KEY, Priorities.LOW);
		await().until(() -> controller.queue().depthByPriority().equals(Map.of(Priorities.LOW, 1)));
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.ERROR);
	}

	@Test
	void failingThreeTimesIsRetriedExactlyOnTheLimitersDelays() {
		ManualClock scheduler = new ManualClock();
		AtomicInteger calls = new AtomicInteger();
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("test")
			.rateLimiter(dev.kubereconciler.ratelimit.RateLimiters.exponential(Duration.ofMillis(5),
					Duration.ofSeconds(1000)))
			.reconcile((request) -> {
				if (calls.incrementAndGet() <= 3) {
					throw new IllegalStateException("fails on purpose");
				}
				return Result.done();
			});
		this.controller = StandaloneController.build(definition, scheduler, null, this.listener);
		this.controller.start();
		this.controller.enqueue(KEY);
		List<Duration> delays = List.of(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(20));
		for (int failure = 1; failure <= delays.size(); failure++) {
			Duration delay = delays.get(failure - 1);
			int attempts = failure;
			await().until(() -> calls.get() == attempts && this.controller.queue().waiting() == 1);
			scheduler.advance(delay.minusNanos(1));
			assertThat(this.controller.queue().depth()).as("retry before %s", delay).isZero();
			scheduler.advance(Duration.ofNanos(1));
		}
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(calls).hasValue(4);
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.ERROR, ReconcileOutcome.ERROR,
				ReconcileOutcome.ERROR, ReconcileOutcome.SUCCESS);
		assertThat(this.controller.queue().numRequeues(KEY)).isZero();
	}

	@Test
	void terminalErrorIsNotRequeued() {
		AtomicInteger calls = new AtomicInteger();
		start((request) -> {
			calls.incrementAndGet();
			throw new TerminalReconcileException("cannot fix this");
		}, this.system, Duration.ZERO).enqueue(KEY);
		await().until(() -> this.outcomes.contains(ReconcileOutcome.TERMINAL_ERROR));
		await().during(Duration.ofMillis(150)).until(() -> calls.get() == 1);
		assertThat(this.limiter.calls).containsExactly("forget default/a");
		assertThat(this.controller.queue().waiting() + this.controller.queue().depth()).isZero();
	}

	@Test
	void nullResultIsAnErrorAndRequeuesRateLimited() {
		AtomicInteger calls = new AtomicInteger();
		start((request) -> (calls.incrementAndGet() == 1) ? null : Result.done(), this.system, Duration.ZERO)
			.enqueue(KEY);
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.ERROR, ReconcileOutcome.SUCCESS);
		assertThat(this.limiter.calls).containsExactly("when default/a", "forget default/a");
	}

	@Test
	void errorIsRecoveredAsPanicAndTheWorkerSurvives() {
		AtomicInteger calls = new AtomicInteger();
		start((request) -> {
			if (calls.incrementAndGet() == 1) {
				throw new StackOverflowError("simulated");
			}
			return Result.done();
		}, this.system, Duration.ZERO).enqueue(KEY);
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.PANIC, ReconcileOutcome.SUCCESS);
		assertThat(this.limiter.calls).containsExactly("when default/a", "forget default/a");
	}

	@Test
	void timeoutInterruptsTheReconcileAndRequeuesRateLimited() {
		ManualClock scheduler = new ManualClock();
		ManualClock ticker = scheduler;
		CountDownLatch started = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		WorkQueueController controller = start((request) -> {
			if (calls.incrementAndGet() == 1) {
				started.countDown();
				new CountDownLatch(1).await();
			}
			return Result.done();
		}, scheduler, Duration.ofSeconds(30));
		controller.enqueue(KEY);
		await().until(() -> started.getCount() == 0);
		ticker.advance(Duration.ofSeconds(30).minusNanos(1));
		controller.checkTimeouts();
		assertThat(this.outcomes).isEmpty();
		ticker.advance(Duration.ofNanos(1));
		controller.checkTimeouts();
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.TIMEOUT, ReconcileOutcome.SUCCESS);
		assertThat(this.limiter.calls).containsExactly("when default/a", "forget default/a");
	}

	@Test
	void reconcileThatIgnoresTheInterruptIsAbandonedAndItsKeyRetried() {
		ManualClock scheduler = new ManualClock();
		ManualClock ticker = scheduler;
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		WorkQueueController controller = start((request) -> {
			if (calls.incrementAndGet() == 1) {
				while (release.getCount() > 0) {
					try {
						release.await();
					}
					catch (InterruptedException ex) {
						// a hostile reconciler that swallows interrupts
					}
				}
			}
			return Result.done();
		}, scheduler, Duration.ofSeconds(30));
		controller.enqueue(KEY);
		await().until(() -> calls.get() == 1);
		ticker.advance(Duration.ofSeconds(30));
		controller.checkTimeouts();
		ticker.advance(Duration.ofSeconds(1));
		controller.checkTimeouts();
		await().until(() -> this.outcomes.contains(ReconcileOutcome.SUCCESS));
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.TIMEOUT, ReconcileOutcome.SUCCESS);
		assertThat(calls).hasValue(2);
		release.countDown();
	}

	@Test
	void reAddDuringProcessingIsDeferredNotLost() throws Exception {
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch proceed = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		AtomicInteger concurrent = new AtomicInteger();
		AtomicInteger maxConcurrent = new AtomicInteger();
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("test")
			.maxConcurrentReconciles(4)
			.rateLimiter(this.limiter)
			.reconcile((request) -> {
				maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
				if (calls.incrementAndGet() == 1) {
					inside.countDown();
					proceed.await();
				}
				concurrent.decrementAndGet();
				return Result.done();
			});
		this.controller = StandaloneController.build(definition, this.system, null, this.listener);
		this.controller.start();
		this.controller.enqueue(KEY);
		inside.await();
		this.controller.enqueue(KEY);
		this.controller.enqueue(KEY);
		proceed.countDown();
		await().until(() -> calls.get() == 2);
		await().during(Duration.ofMillis(100)).until(() -> calls.get() == 2);
		assertThat(maxConcurrent).hasValue(1);
	}

	@Test
	void managerGateDelaysDispatchAndIsReportedAsManagerDelay() {
		List<Duration> delays = new java.util.concurrent.CopyOnWriteArrayList<>();
		ManualClock scheduler = ManualClock.advancingOnSleep();
		ManualClock ticker = scheduler;
		dev.kubereconciler.ratelimit.TokenBucketRateLimiter<Object> bucket = dev.kubereconciler.ratelimit.RateLimiters
			.bucket(10, 1, ticker);
		ManagerGate gate = new ManagerGate(bucket, java.util.EnumSet.of(Trigger.EVENT), null);
		ControllerListener recording = new ControllerListener() {

			@Override
			public void limiterDelayed(String controller, Request request, Trigger cause, DelaySource source,
					Duration delay) {
				if (source == DelaySource.MANAGER) {
					delays.add(delay);
				}
			}

			@Override
			public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
					Throwable error) {
				ControllerOutcomeTests.this.outcomes.add(outcome);
			}

		};
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("test")
			.rateLimiter(this.limiter)
			.reconcile((request) -> Result.done());
		this.controller = StandaloneController.build(definition, scheduler, gate, recording);
		this.controller.start();
		this.controller.enqueue(new Request("default", "a"));
		this.controller.enqueue(new Request("default", "b"));
		this.controller.enqueue(new Request("default", "c"));
		await().until(() -> this.outcomes.size() == 3);
		assertThat(delays).containsExactly(Duration.ofMillis(100), Duration.ofMillis(100));
		assertThat(ticker.read()).isEqualTo(Duration.ofMillis(200).toNanos());
	}

}
