package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.source.ChannelSource;
import dev.kubereconciler.source.Source;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Sources in a running controller: their keys reach the workers through the queue, each
 * source polls on a thread of its own, and the sources stop with the workers.
 */
class ControllerSourcesTests {

	private static final Duration PERIOD = Duration.ofSeconds(10);

	private final ManualClock clock = new ManualClock();

	private final List<Request> reconciled = new CopyOnWriteArrayList<>();

	private final Map<String, String> counted = new ConcurrentHashMap<>();

	private WorkQueueController controller;

	@AfterEach
	void stop() {
		if (this.controller != null) {
			this.controller.stop(Duration.ofSeconds(5));
		}
	}

	@Test
	void aPollThatHangsHoldsUpNoOtherSourceAndIsInterruptedWhenTheControllerStops() {
		CountDownLatch never = new CountDownLatch(1);
		AtomicBoolean interrupted = new AtomicBoolean();
		Map<Request, String> external = new ConcurrentHashMap<>(Map.of(new Request("ns", "a"), "v1"));
		AtomicBoolean baseline = new AtomicBoolean();
		start(ControllerDefinition.builder(V1ConfigMap.class).named("cm").source(Source.polling("stuck", PERIOD, () -> {
			try {
				never.await();
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
				throw ex;
			}
			return Map.of();
		})).source(Source.polling("inventory", PERIOD, () -> {
			baseline.set(true);
			return Map.copyOf(external);
		})));
		this.clock.runDue();
		await().untilTrue(baseline);
		external.put(new Request("ns", "a"), "v2");
		this.clock.advance(PERIOD);
		await().until(() -> this.reconciled.equals(List.of(new Request("ns", "a"))));
		this.controller.stop(Duration.ofSeconds(5));
		await().untilTrue(interrupted);
	}

	@Test
	void aPushedKeyIsReconciledOnceThroughTheQueueAndCountedUnderItsSource() {
		ChannelSource webhook = Source.channel("webhook");
		start(ControllerDefinition.builder(V1ConfigMap.class).named("cm").source(webhook));
		assertThat(webhook.offer(new Request("ns", "a"))).isTrue();
		await().until(() -> this.reconciled.size() == 1);
		assertThat(this.reconciled).containsExactly(new Request("ns", "a"));
		assertThat(this.counted).containsEntry("cm", "webhook");
		this.controller.stop(Duration.ofSeconds(5));
		assertThat(webhook.offer(new Request("ns", "b"))).isFalse();
	}

	@Test
	void sourcesRunOnlyWhileTheWorkersRunAsOnTheLeader() {
		ChannelSource webhook = Source.channel("webhook");
		this.controller = StandaloneController
			.build(ControllerDefinition.builder(V1ConfigMap.class).named("cm").source(webhook).reconcile((request) -> {
				this.reconciled.add(request);
				return Result.done();
			}), this.clock, null, new ControllerListener() {
			});
		this.controller.waitForLeadership();
		assertThat(webhook.offer(new Request("ns", "a"))).isFalse();
		// won the Lease
		this.controller.start();
		assertThat(webhook.offer(new Request("ns", "a"))).isTrue();
		// lost it, as the manager stops its controllers
		this.controller.stop(Duration.ZERO);
		this.controller.waitForLeadership();
		assertThat(webhook.offer(new Request("ns", "b"))).isFalse();
	}

	@Test
	void aDefinitionRefusesTwoSourcesOfOneNameAndAPollOfAnotherType() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerDefinition.builder(V1ConfigMap.class)
				.source(Source.channel("webhook"))
				.source(Source.channel("webhook"))
				.reconcile((request) -> Result.done()))
			.withMessage("Controller 'configmap' has two sources named 'webhook'; give each source a name of its own");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerDefinition.builder(V1ConfigMap.class)
				.source(Source.perObject("provider", Gadget.class, PERIOD, (gadget) -> "x"))
				.reconcile((request) -> Result.done()))
			.withMessage("Source 'provider' of controller 'configmap' polls Gadget objects, but the controller "
					+ "watches V1ConfigMap; poll the watched type");
	}

	private void start(ControllerDefinitionBuilder<V1ConfigMap> builder) {
		ControllerDefinition definition = builder.reconcileTimeout(Duration.ZERO).reconcile((request) -> {
			this.reconciled.add(request);
			return Result.done();
		});
		this.controller = StandaloneController.build(definition, this.clock, null, new ControllerListener() {
			@Override
			public void sourceKeyAdded(String controller, String source) {
				ControllerSourcesTests.this.counted.put(controller, source);
			}
		});
		this.controller.start();
	}

}
