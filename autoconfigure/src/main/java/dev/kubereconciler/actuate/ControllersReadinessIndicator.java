package dev.kubereconciler.actuate;

import java.util.function.Supplier;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.kubereconciler.manager.ControllerManager;

/**
 * Readiness of the controllers, a member of the {@code readiness} health group:
 * {@code DOWN} until the manager runs and every informer cache has synced, {@code UP}
 * after, or at once for a cold standby, whose informers start when it wins the Lease.
 * Leadership is deliberately not asked: a replica that is not the leader still serves the
 * Actuator endpoint and its caches, so it is ready. Nothing here belongs in liveness,
 * since restarting a pod does not bring back an unreachable API server.
 */
public class ControllersReadinessIndicator extends ManagerHealthIndicator {

	private static final String FAILURE = "Controllers readiness check failed";

	/**
	 * Create the indicator.
	 * @param manager supplies the manager on each check
	 */
	public ControllersReadinessIndicator(Supplier<ControllerManager> manager) {
		super(FAILURE, manager);
	}

	@Override
	void check(ControllerManager manager, Health.Builder builder) {
		boolean ready = manager.isRunning() && cachesReady(manager);
		builder.status(ready ? Status.UP : Status.DOWN)
			.withDetail("running", manager.isRunning())
			.withDetail("cachesSynced", manager.hasSynced())
			.withDetail("cachesStarted", manager.cachesStarted())
			.withDetail("leader", manager.isLeader());
	}

}
