package dev.kubereconciler.actuate;

import java.util.function.Supplier;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.kubereconciler.manager.ControllerManager;

/**
 * What the health and readiness indicators of the controllers share: the manager, asked
 * anew on each check, and the rule for when its caches are ready.
 */
abstract class ManagerHealthIndicator extends AbstractHealthIndicator {

	private final Supplier<ControllerManager> manager;

	ManagerHealthIndicator(String failureMessage, Supplier<ControllerManager> manager) {
		super(failureMessage);
		this.manager = manager;
	}

	@Override
	protected final void doHealthCheck(Health.Builder builder) {
		check(this.manager.get(), builder);
	}

	abstract void check(ControllerManager manager, Health.Builder builder);

	/**
	 * Return whether the manager's caches are ready: synced, or not started at all, as in
	 * a cold standby, which lists only once it wins the Lease and serves the Actuator
	 * endpoint meanwhile.
	 * @param manager the manager
	 * @return whether its caches are ready
	 */
	static boolean cachesReady(ControllerManager manager) {
		return manager.hasSynced() || !manager.cachesStarted();
	}

}
