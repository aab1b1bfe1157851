package dev.kubereconciler.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerState;
import dev.kubereconciler.manager.ControllerManager;

/**
 * Health of the controllers: {@code DOWN} when a controller failed, for example because
 * its informer cache did not sync, or stopped while the manager runs; {@code UNKNOWN}
 * while the manager is not running or its caches are still syncing; {@code UP} otherwise,
 * also for a cold standby whose informers have not started. The details give each
 * controller's state.
 */
public class ControllersHealthIndicator extends ManagerHealthIndicator {

	/**
	 * Create the indicator.
	 * @param manager supplies the manager on each check
	 */
	public ControllersHealthIndicator(Supplier<ControllerManager> manager) {
		super("Controllers health check failed", manager);
	}

	@Override
	void check(ControllerManager manager, Health.Builder builder) {
		boolean running = manager.isRunning();
		boolean failed = false;
		Map<String, Object> controllers = new LinkedHashMap<>();
		for (Controller controller : manager.controllers().values()) {
			ControllerState state = controller.state();
			// the manager stops its controllers only on shutdown (after running
			// turned false) or, for a moment, when leadership moves; any other stop
			// is unexpected
			boolean down = state == ControllerState.FAILED || (running && state == ControllerState.STOPPED);
			failed |= down;
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("status", down ? Status.DOWN.getCode() : Status.UP.getCode());
			details.put("state", state.label());
			details.put("watches", controller.resourceType().displayName());
			controllers.put(controller.name(), details);
		}
		// a manager that is still waiting for its caches has not failed yet: its start
		// fails, and the controllers turn failed, once the cache sync timeout passes
		boolean synced = manager.hasSynced();
		Status status = failed ? Status.DOWN : ((running && cachesReady(manager)) ? Status.UP : Status.UNKNOWN);
		builder.status(status)
			.withDetail("running", running)
			.withDetail("leader", manager.isLeader())
			.withDetail("cachesSynced", synced)
			.withDetail("cachesStarted", manager.cachesStarted())
			.withDetail("controllers", controllers);
		if (!manager.clusters().isEmpty()) {
			// a cluster of the fleet that is still syncing never lowers the status: it
			// holds up neither the others nor the manager
			builder.withDetail("clusters", manager.clusters());
		}
		if (manager.shardCoordinator() != null) {
			// a replica that holds no partition is a healthy standby, so this never
			// lowers the status
			builder.withDetail("partitionsHeld", manager.shardCoordinator().table().held().size());
		}
	}

}
