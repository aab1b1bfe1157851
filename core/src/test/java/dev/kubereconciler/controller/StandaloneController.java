package dev.kubereconciler.controller;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ManagerBuilder;
import dev.kubereconciler.time.DelayScheduler;

/**
 * Builds controllers the one way there is, through a {@link ControllerManager}, for tests
 * that need no API server: the manager is never started, and the test starts the
 * controller and feeds it keys itself.
 */
public final class StandaloneController {

	private StandaloneController() {
	}

	/**
	 * Return a manager builder on the given clock whose API client points nowhere.
	 * @param clock the clock
	 * @return the builder
	 */
	public static ManagerBuilder manager(DelayScheduler clock) {
		return ControllerManager.builder(new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0))
			.clock(clock)
			.abandonGrace(Duration.ofSeconds(1));
	}

	/**
	 * Build one controller with the given gate and listener.
	 * @param definition the definition
	 * @param clock the clock
	 * @param gate the gate, or {@code null} for an open one
	 * @param listener the listener
	 * @return the controller, not started
	 */
	public static WorkQueueController build(ControllerDefinition definition, DelayScheduler clock, ManagerGate gate,
			ControllerListener listener) {
		ManagerBuilder builder = manager(clock).listener(listener).controller(definition);
		if (gate != null) {
			builder.gate(gate);
		}
		return (WorkQueueController) builder.build().controller(definition.name());
	}

}
