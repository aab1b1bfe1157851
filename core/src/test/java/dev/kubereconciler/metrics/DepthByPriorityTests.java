package dev.kubereconciler.metrics;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.StandaloneController;
import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.queue.RateLimitingQueue;
import dev.kubereconciler.ratelimit.ManualClock;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DepthByPriority}: {@code workqueue_depth} by priority, with
 * controller-runtime's cap of 25 priority labels.
 */
class DepthByPriorityTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void eachPriorityGetsASeriesUpToTheCapAndTheRestAreSummedUnderThePlaceholder() {
		Controller controller = controller(true);
		DepthByPriority depth = new DepthByPriority(this.registry, Tags.of("controller", "c"), () -> controller);
		for (int priority = 0; priority < 30; priority++) {
			controller.queue().add(new Request("ns", "key-" + priority), AddCause.EVENT, priority);
			controller.queue().add(new Request("ns", "other-" + priority), AddCause.EVENT, priority);
			depth.observe(priority);
		}
		assertThat(this.registry.find("workqueue.depth").gauges()).hasSize(26);
		assertThat(depthAt("0")).isEqualTo(2);
		assertThat(depthAt("24")).isEqualTo(2);
		assertThat(this.registry.find("workqueue.depth").tag("priority", "25").gauge()).isNull();
		assertThat(depthAt(DepthByPriority.EXCEEDED)).isEqualTo(10);
	}

	@Test
	void aPlainQueueReportsEveryKeyAtTheNormalPriority() {
		Controller controller = controller(false);
		DepthByPriority depth = new DepthByPriority(this.registry, Tags.of("controller", "c"), () -> controller);
		controller.queue().add(new Request("ns", "a"), AddCause.EVENT, RateLimitingQueue.LOW_PRIORITY);
		depth.observe(RateLimitingQueue.LOW_PRIORITY);
		assertThat(this.registry.find("workqueue.depth").gauges()).hasSize(1);
		assertThat(depthAt("0")).isEqualTo(1);
	}

	private double depthAt(String priority) {
		Gauge gauge = this.registry.find("workqueue.depth").tag("priority", priority).gauge();
		assertThat(gauge).as("series for priority " + priority).isNotNull();
		return gauge.value();
	}

	private static Controller controller(boolean priorityQueue) {
		ControllerDefinition definition = ControllerDefinition.builder("c", V1ConfigMap.class)
			.reconciler((request) -> Result.done())
			.build();
		return StandaloneController.manager(new ManualClock())
			.priorityQueue(priorityQueue)
			.controller(definition)
			.build()
			.controller("c");
	}

}
