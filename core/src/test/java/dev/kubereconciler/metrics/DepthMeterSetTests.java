package dev.kubereconciler.metrics;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.StandaloneController;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DepthMeterSet}: {@code workqueue_depth} by priority, with
 * controller-runtime's cap of 25 priority labels.
 */
class DepthMeterSetTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void eachPriorityGetsASeriesUpToTheCapAndTheRestAreSummedUnderThePlaceholder() {
		WorkQueueController controller = controller(true);
		DepthMeterSet depth = new DepthMeterSet(this.registry, Tags.of("controller", "c"), () -> controller);
		for (int priority = 0; priority < 30; priority++) {
			controller.workQueue().add(new Request("ns", "key-" + priority), Trigger.EVENT, priority);
			controller.workQueue().add(new Request("ns", "other-" + priority), Trigger.EVENT, priority);
			depth.observe(priority);
		}
		assertThat(this.registry.find("workqueue.depth").gauges()).hasSize(26);
		assertThat(depthAt("0")).isEqualTo(2);
		assertThat(depthAt("24")).isEqualTo(2);
		assertThat(this.registry.find("workqueue.depth").tag("priority", "25").gauge()).isNull();
		assertThat(depthAt(DepthMeterSet.EXCEEDED)).isEqualTo(10);
	}

	@Test
	void aPlainQueueReportsEveryKeyAtTheNormalPriority() {
		WorkQueueController controller = controller(false);
		DepthMeterSet depth = new DepthMeterSet(this.registry, Tags.of("controller", "c"), () -> controller);
		controller.workQueue().add(new Request("ns", "a"), Trigger.EVENT, Priorities.LOW);
		depth.observe(Priorities.LOW);
		assertThat(this.registry.find("workqueue.depth").gauges()).hasSize(1);
		assertThat(depthAt("0")).isEqualTo(1);
	}

	private double depthAt(String priority) {
		Gauge gauge = this.registry.find("workqueue.depth").tag("priority", priority).gauge();
		assertThat(gauge).as("series for priority " + priority).isNotNull();
		return gauge.value();
	}

	private static WorkQueueController controller(boolean priorityQueue) {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("c")
			.reconcile((request) -> Result.done());
		return (WorkQueueController) StandaloneController.manager(new ManualClock())
			.priorityQueue(priorityQueue)
			.controller(definition)
			.build()
			.controller("c");
	}

}
