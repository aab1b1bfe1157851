package dev.kubereconciler.controller;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.ratelimit.DelayScheduler;
import dev.kubereconciler.ratelimit.Sleeper;

/**
 * The manager's default {@link DelayScheduler}: one thread, shared by every controller's
 * queue, that exists only while the manager runs.
 */
final class ManagedDelayScheduler implements DelayScheduler {

	private final ThreadFactory threadFactory;

	private volatile @Nullable ScheduledThreadPoolExecutor executor;

	ManagedDelayScheduler(ThreadFactory threadFactory) {
		this.threadFactory = threadFactory;
	}

	synchronized void start() {
		if (this.executor == null) {
			ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (runnable) -> {
				Thread thread = this.threadFactory.newThread(runnable);
				thread.setName("kube-reconciler-delays");
				return thread;
			});
			// a queue cancels its wake-up whenever an earlier one replaces it
			executor.setRemoveOnCancelPolicy(true);
			this.executor = executor;
		}
	}

	synchronized void stop() {
		if (this.executor != null) {
			this.executor.shutdownNow();
			this.executor = null;
		}
	}

	@Override
	public long read() {
		return System.nanoTime();
	}

	@Override
	public void sleep(long nanos) throws InterruptedException {
		Sleeper.system().sleep(nanos);
	}

	@Override
	public Cancellable schedule(long deadline, Runnable action) {
		ScheduledThreadPoolExecutor executor = this.executor;
		if (executor == null) {
			throw new IllegalStateException("The controller manager is not running");
		}
		ScheduledFuture<?> future = executor.schedule(action, deadline - read(), TimeUnit.NANOSECONDS);
		return () -> future.cancel(false);
	}

}
