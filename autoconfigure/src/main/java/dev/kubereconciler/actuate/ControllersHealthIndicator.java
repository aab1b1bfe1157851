package dev.kubereconciler.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.kubereconciler.controller.ControllerManager;
import dev.kubereconciler.controller.ControllerState;

/**
 * Health of the controllers: DOWN when an informer did not sync or a controller failed or
 * stopped while the manager runs; UP otherwise, with each controller's state as details.
 */
public class ControllersHealthIndicator extends AbstractHealthIndicator {

	private final Supplier<ControllerManager> manager;

	public ControllersHealthIndicator(Supplier<ControllerManager> manager) {
		super("Controllers health check failed");
		this.manager = manager;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		ControllerManager manager = this.manager.get();
		boolean up = true;
		Map<String, Object> controllers = new LinkedHashMap<>();
		for (var entry : manager.controllers().entrySet()) {
			ControllerState state = entry.getValue().state();
			controllers.put(entry.getKey(), state.label());
			if (state == ControllerState.FAILED || (manager.isRunning() && state == ControllerState.STOPPED)) {
				up = false;
			}
		}
		boolean synced = !manager.isRunning() || manager.hasSynced();
		up &= synced;
		builder.status(up ? "UP" : "DOWN")
			.withDetail("leader", manager.isLeader())
			.withDetail("cachesSynced", synced)
			.withDetail("controllers", controllers);
	}

}
