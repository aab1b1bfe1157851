package dev.kubereconciler.internal.controller;

import java.util.Collection;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.internal.cache.InformerCaches;

/**
 * Starts and stops a manager's informers once each: at once, for a manager without leader
 * election or a warm standby, or when this instance first wins the Lease, for a cold
 * standby. A cold standby keeps its informers running after it loses the Lease, so that a
 * later term starts warm.
 */
public final class StandbyCaches {

	private static final Logger logger = LoggerFactory.getLogger(StandbyCaches.class);

	private final InformerCaches caches;

	private final Object lifecycleMonitor;

	private final BooleanSupplier managerRunning;

	private volatile boolean started;

	/**
	 * Create the standby caches.
	 * @param caches the informer caches
	 * @param lifecycleMonitor the manager's monitor, held while it starts and stops
	 * @param managerRunning whether the manager runs
	 */
	public StandbyCaches(InformerCaches caches, Object lifecycleMonitor, BooleanSupplier managerRunning) {
		this.caches = caches;
		this.lifecycleMonitor = lifecycleMonitor;
		this.managerRunning = managerRunning;
	}

	public boolean started() {
		return this.started;
	}

	/**
	 * Start the informers; the caller holds the manager's monitor.
	 */
	public void start() {
		this.caches.start();
		this.started = true;
	}

	/**
	 * Stop the informers, if they were started; the caller holds the manager's monitor.
	 */
	public void stop() {
		if (this.started) {
			this.caches.stop();
			this.started = false;
		}
	}

	/**
	 * Make sure the caches are synced before the controllers lead: a warm standby synced
	 * them at start; a cold one starts its informers now and waits while the term lasts.
	 * @param controllers the controllers, whose cache sync timeouts apply
	 * @param termLasts whether this term of leadership still lasts
	 * @return {@code true} once synced; {@code false} if the term or the manager ended
	 * first, or a cache did not sync within its timeout (the controllers then fail, and
	 * the informers go on listing for the next term)
	 */
	public boolean prepareLeading(Collection<WorkQueueController> controllers, BooleanSupplier termLasts) {
		if (this.started && this.caches.hasSynced()) {
			return true;
		}
		synchronized (this.lifecycleMonitor) {
			// the manager stops under this monitor: informers started after that would
			// never stop
			if (!this.managerRunning.getAsBoolean()) {
				return false;
			}
			if (!this.started) {
				logger.info("Won the Lease; starting the informers of this cold standby");
				start();
			}
		}
		try {
			return this.caches.awaitSync(controllers.stream().map(WorkQueueController::definition).toList(), termLasts);
		}
		catch (IllegalStateException ex) {
			if (termLasts.getAsBoolean()) {
				controllers.forEach((controller) -> controller.fail(ex));
			}
			return false;
		}
	}

}
