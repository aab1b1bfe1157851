package dev.kubereconciler.actuate;

import java.util.function.Supplier;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
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
public class ControllersReadinessIndicator extends AbstractHealthIndicator {

	private final Supplier<ControllerManager> manager;

	/**
	 * Create the indicator.
	 * @param manager supplies the manager on each check
	 */
	public ControllersReadinessIndicator(Supplier<ControllerManager> manager) {
		super("Controllers readiness check failed");
		this.manager = manager;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		ControllerManager manager = this.manager.get();
		boolean running = manager.isRunning();
		boolean synced = manager.hasSynced();
		// a cold standby lists only once it wins the Lease; it serves this endpoint
		// meanwhile
		boolean cachesReady = synced || !manager.cachesStarted();
		builder.status((running && cachesReady) ? Status.UP : Status.DOWN)
			.withDetail("running", running)
			.withDetail("cachesSynced", synced)
			.withDetail("cachesStarted", manager.cachesStarted())
			.withDetail("leader", manager.isLeader());
	}

}
