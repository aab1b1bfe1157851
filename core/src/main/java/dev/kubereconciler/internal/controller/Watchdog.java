package dev.kubereconciler.internal.controller;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ThreadFactory;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.time.Sleeper;

/**
 * Checks the controllers' reconciles against their timeouts once a period, on its own
 * daemon thread, while the manager runs. Its period passes on the manager's clock, so a
 * test moves it with the same manual clock as everything else.
 */
public final class Watchdog {

	private final Collection<WorkQueueController> controllers;

	private final Sleeper clock;

	private final Duration period;

	private final ThreadFactory threadFactory;

	private @Nullable Thread thread;

	public Watchdog(Collection<WorkQueueController> controllers, Sleeper clock, Duration period,
			ThreadFactory threadFactory) {
		this.controllers = controllers;
		this.clock = clock;
		this.period = period;
		this.threadFactory = threadFactory;
	}

	public synchronized void start() {
		if (this.thread != null) {
			return;
		}
		Thread thread = this.threadFactory.newThread(this::run);
		thread.setName("kube-reconciler-watchdog");
		thread.setDaemon(true);
		this.thread = thread;
		thread.start();
	}

	public synchronized void stop() {
		if (this.thread != null) {
			this.thread.interrupt();
			this.thread = null;
		}
	}

	private void run() {
		while (!Thread.currentThread().isInterrupted()) {
			try {
				this.clock.sleep(this.period.toNanos());
			}
			catch (InterruptedException ex) {
				return;
			}
			this.controllers.forEach(WorkQueueController::checkTimeouts);
		}
	}

}
