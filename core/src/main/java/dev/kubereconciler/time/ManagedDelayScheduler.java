package dev.kubereconciler.time;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

import org.jspecify.annotations.Nullable;

/**
 * The manager's default {@link DelayScheduler}: one thread, shared by every controller's
 * queue, that exists only while the manager runs.
 */
public final class ManagedDelayScheduler implements DelayScheduler {

	private final ThreadFactory threadFactory;

	private final DelayScheduler system = new SystemDelayScheduler(this::runningExecutor);

	private volatile @Nullable ScheduledThreadPoolExecutor executor;

	/**
	 * Create a scheduler that runs nothing until {@link #start()}.
	 * @param threadFactory makes its thread
	 */
	public ManagedDelayScheduler(ThreadFactory threadFactory) {
		this.threadFactory = threadFactory;
	}

	/**
	 * Start the scheduler's thread, unless it runs.
	 */
	public synchronized void start() {
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

	/**
	 * Stop the scheduler's thread; actions not run yet are dropped.
	 */
	public synchronized void stop() {
		ScheduledThreadPoolExecutor executor = this.executor;
		if (executor != null) {
			executor.shutdownNow();
			this.executor = null;
		}
	}

	private ScheduledExecutorService runningExecutor() {
		ScheduledThreadPoolExecutor executor = this.executor;
		if (executor == null) {
			throw new IllegalStateException("The controller manager is not running");
		}
		return executor;
	}

	@Override
	public long read() {
		return this.system.read();
	}

	@Override
	public void sleep(long nanos) throws InterruptedException {
		this.system.sleep(nanos);
	}

	@Override
	public Cancellable schedule(long deadline, Runnable action) {
		return this.system.schedule(deadline, action);
	}

}
