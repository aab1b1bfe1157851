package dev.kubereconciler.benchmarks.startup;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.kubereconciler.autoconfigure.ManagedControllers;

/**
 * Marks the moment the controllers' caches synced: Spring starts it right after the
 * controllers' own lifecycle phase, whose start returns once the caches synced.
 */
@Component
public class Synced implements SmartLifecycle {

	private volatile boolean running;

	@Override
	public void start() {
		Milestones.reached("synced");
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return ManagedControllers.PHASE + 1;
	}

}
