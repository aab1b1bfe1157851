package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Regression tests for the worker: what a reconcile returns after its timeout decides
 * what becomes of its key, and an unexpected exception never ends a worker or wedges its
 * key.
 */
class WorkerDefectTests {

	private static final Request KEY = new Request("default", "a");

	private final ManualClock clock = new ManualClock();

	private final RecordingRateLimiter limiter = new RecordingRateLimiter(Duration.ZERO);

	private final ConcurrentLinkedQueue<ReconcileOutcome> outcomes = new ConcurrentLinkedQueue<>();

	private final List<WorkQueueController> controllers = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		this.controllers.forEach((controller) -> controller.stop(Duration.ofSeconds(5)));
	}

	@Test
	void timedOutReconcileThatReturnsRequeueAfterWaitsExactlyThatLong() {
		WorkQueueController controller = timeOutOnce(() -> Result.requeueAfter(Duration.ofHours(1)));
		assertThat(this.limiter.calls).containsExactly("forget default/a");
		await().until(() -> controller.queue().waiting() == 1);
		this.clock.advance(Duration.ofHours(1).minusNanos(1));
		assertThat(controller.queue().depth()).isZero();
		assertThat(controller.queue().waiting()).isEqualTo(1);
	}

	@Test
	void timedOutReconcileThatReturnsDoneIsForgotten() {
		WorkQueueController controller = timeOutOnce(Result::done);
		assertThat(this.limiter.calls).containsExactly("forget default/a");
		assertThat(controller.queue().waiting()).isZero();
		assertThat(controller.queue().depth()).isZero();
	}

	@Test
	void timedOutReconcileThatFailsTerminallyIsNotRetried() {
		WorkQueueController controller = timeOutOnce(() -> {
			throw new TerminalReconcileException("gave up");
		});
		assertThat(this.limiter.calls).containsExactly("forget default/a");
		assertThat(controller.queue().waiting()).isZero();
		assertThat(controller.queue().depth()).isZero();
	}

	@Test
	void exceptionOutsideTheReconcileRequeuesTheKeyAndKeepsTheWorker() {
		AtomicBoolean failed = new AtomicBoolean();
		List<Request> reconciled = new CopyOnWriteArrayList<>();
		ControllerListener listener = new RecordingListener() {

			@Override
			public void reconcileStarted(String controller, Request request) {
				if (failed.compareAndSet(false, true)) {
					throw new IllegalStateException("a listener that fails once");
				}
			}

		};
		WorkQueueController controller = start((request) -> {
			reconciled.add(request);
			return Result.done();
		}, Duration.ZERO, listener);
		controller.enqueue(KEY);
		await().until(() -> reconciled.size() == 1);
		controller.enqueue(new Request("default", "b"));
		await().until(() -> reconciled.size() == 2);
		assertThat(reconciled).containsExactly(KEY, new Request("default", "b"));
		assertThat(this.limiter.calls).containsExactly("when default/a", "forget default/a", "forget default/b");
	}

	private WorkQueueController timeOutOnce(AfterInterrupt afterInterrupt) {
		CountDownLatch started = new CountDownLatch(1);
		WorkQueueController controller = start((request) -> {
			started.countDown();
			try {
				new CountDownLatch(1).await();
			}
			catch (InterruptedException ex) {
				// a reconciler that stops its work on the interrupt and says how it ended
			}
			return afterInterrupt.result();
		}, Duration.ofSeconds(30), new RecordingListener());
		controller.enqueue(KEY);
		await().until(() -> started.getCount() == 0);
		this.clock.advance(Duration.ofSeconds(30));
		controller.checkTimeouts();
		await().until(() -> !this.outcomes.isEmpty());
		assertThat(this.outcomes).containsExactly(ReconcileOutcome.TIMEOUT);
		return controller;
	}

	private WorkQueueController start(ReconcileFunction reconciler, Duration timeout, ControllerListener listener) {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("test")
			.rateLimiter(this.limiter)
			.reconcileTimeout(timeout)
			.reconcile(reconciler);
		WorkQueueController controller = StandaloneController.build(definition, this.clock, null, listener);
		controller.start();
		this.controllers.add(controller);
		return controller;
	}

	@FunctionalInterface
	private interface AfterInterrupt {

		Result result();

	}

	private class RecordingListener implements ControllerListener {

		@Override
		public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
				Throwable error) {
			WorkerDefectTests.this.outcomes.add(outcome);
		}

	}

}
