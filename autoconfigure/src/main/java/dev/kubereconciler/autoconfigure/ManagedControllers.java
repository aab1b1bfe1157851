package dev.kubereconciler.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Lister;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ControllerRegistry;

/**
 * Builds the {@link ControllerManager} once every bean exists (so every
 * {@code @Reconciler} method is known and every property is validated before anything
 * starts), then starts it after the context refreshed and stops it gracefully on
 * shutdown.
 *
 * <p>
 * Application code injects it as the {@link ControllerRegistry}, which needs nothing from
 * this package. Shutdown runs on its own thread, in parallel with the other beans of its
 * phase and within {@code spring.lifecycle.timeout-per-shutdown-phase}.
 */
public class ManagedControllers implements SmartInitializingSingleton, SmartLifecycle, ControllerRegistry {

	private static final Logger logger = LoggerFactory.getLogger(ManagedControllers.class);

	/**
	 * The lifecycle phase: after the web server starts, and stopped before its graceful
	 * shutdown, so that Actuator stays reachable while reconciles drain.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private final Supplier<List<ControllerDefinition>> definitions;

	private final ManagerFactory managerFactory;

	private final boolean autoStartup;

	private final ThreadFactory shutdownThreads;

	private volatile @Nullable ControllerManager manager;

	private volatile boolean running;

	ManagedControllers(Supplier<List<ControllerDefinition>> definitions, ManagerFactory managerFactory,
			boolean autoStartup) {
		this(definitions, managerFactory, autoStartup, (runnable) -> {
			Thread thread = new Thread(runnable, "kube-reconciler-shutdown");
			thread.setDaemon(true);
			return thread;
		});
	}

	ManagedControllers(Supplier<List<ControllerDefinition>> definitions, ManagerFactory managerFactory,
			boolean autoStartup, ThreadFactory shutdownThreads) {
		this.definitions = definitions;
		this.managerFactory = managerFactory;
		this.autoStartup = autoStartup;
		this.shutdownThreads = shutdownThreads;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.manager = this.managerFactory.create(this.definitions.get());
	}

	/**
	 * Return the manager, available once the application context has instantiated its
	 * beans.
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

	/**
	 * Stop the manager on a thread of its own and signal the callback when it stopped, so
	 * that the drain of in-flight reconciles overlaps the shutdown of the other beans in
	 * this phase.
	 * @param callback signalled once the manager stopped
	 */
	@Override
	public void stop(Runnable callback) {
		this.running = false;
		ControllerManager manager = this.manager;
		if (manager == null) {
			callback.run();
			return;
		}
		Thread thread = this.shutdownThreads.newThread(() -> {
			try {
				manager.stop();
			}
			catch (RuntimeException ex) {
				logger.error("Stopping the controller manager failed", ex);
			}
			finally {
				callback.run();
			}
		});
		thread.start();
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

	@Override
	public Map<String, Controller> controllers() {
		return getManager().controllers();
	}

	@Override
	public @Nullable Controller controller(String name) {
		return getManager().controller(name);
	}

	@Override
	public ManagerGate gate() {
		return getManager().gate();
	}

	@Override
	public boolean isLeader() {
		return getManager().isLeader();
	}

	@Override
	public <T extends KubernetesObject> Lister<T> lister(Class<T> type) {
		return getManager().lister(type);
	}

	@Override
	public boolean hasSynced() {
		return getManager().hasSynced();
	}

	/**
	 * Creates the manager for a list of definitions.
	 */
	@FunctionalInterface
	interface ManagerFactory {

		ControllerManager create(List<ControllerDefinition> definitions);

	}

}
