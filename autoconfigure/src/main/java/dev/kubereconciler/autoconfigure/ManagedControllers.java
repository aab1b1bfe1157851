package dev.kubereconciler.autoconfigure;

import java.util.List;
import java.util.function.Supplier;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerManager;

/**
 * Builds the {@link ControllerManager} once every bean exists (so every {@code @Reconciler}
 * method is known and every property is validated before anything starts), then starts it
 * after the context refreshed and stops it gracefully on shutdown.
 */
public class ManagedControllers implements SmartInitializingSingleton, SmartLifecycle {

	/**
	 * The lifecycle phase: after the web server starts, and stopped before its graceful
	 * shutdown, so that Actuator stays reachable while reconciles drain.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private final Supplier<List<ControllerDefinition>> definitions;

	private final ManagerFactory managerFactory;

	private final boolean autoStartup;

	private volatile ControllerManager manager;

	private volatile boolean running;

	ManagedControllers(Supplier<List<ControllerDefinition>> definitions, ManagerFactory managerFactory,
			boolean autoStartup) {
		this.definitions = definitions;
		this.managerFactory = managerFactory;
		this.autoStartup = autoStartup;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.manager = this.managerFactory.create(this.definitions.get());
	}

	/**
	 * Return the manager, available once the application context has instantiated its beans.
	 * @return the manager
	 * @throws IllegalStateException if called before that
	 */
	public ControllerManager getManager() {
		ControllerManager manager = this.manager;
		if (manager == null) {
			throw new IllegalStateException("The controller manager is created once all singletons exist");
		}
		return manager;
	}

	@Override
	public void start() {
		getManager().start();
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Creates the manager for a list of definitions.
	 */
	@FunctionalInterface
	interface ManagerFactory {

		ControllerManager create(List<ControllerDefinition> definitions);

	}

}
