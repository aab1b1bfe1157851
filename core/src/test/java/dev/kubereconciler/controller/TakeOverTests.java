package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A replica that stood by and then won the lease: what its informer's handler queued
 * meanwhile goes behind the changes of its own term.
 */
class TakeOverTests {

	private static final Request STOOD_BY = new Request("default", "seen-while-standing-by");

	private static final Request CACHED = new Request("default", "cached");

	private static final Request CHANGED = new Request("default", "changed-after-the-take-over");

	private WorkQueueController controller;

	@AfterEach
	void stop() {
		this.controller.stop(Duration.ofSeconds(5));
	}

	@Test
	void keysQueuedWhileStandingByGoAtLowPriorityBehindChangesAfterTheTakeOver() {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("standby")
			.reconcile((request) -> Result.done());
		this.controller = StandaloneController.build(definition, new ManualClock(), null, ControllerListener.NONE);
		this.controller.initialKeys(() -> List.of(STOOD_BY, CACHED));
		this.controller.waitForLeadership();
		// the informer's handler, while another replica led
		this.controller.add(STOOD_BY, Priorities.NORMAL);
		this.controller.pause();
		this.controller.takeOver();
		this.controller.add(CHANGED, Priorities.NORMAL);
		assertThat(this.controller.queue().depthByPriority())
			.isEqualTo(Map.of(Priorities.LOW, 2, Priorities.NORMAL, 1));
	}

}
