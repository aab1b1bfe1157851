package dev.kubereconciler.time;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The {@link DelayScheduler} on {@link System#nanoTime()}: it sleeps by parking the
 * calling thread and runs actions on the executor it is given at each call, so that one
 * whose executor comes and goes, as the manager's does, shares this code.
 */
final class SystemDelayScheduler implements DelayScheduler {

	private final Supplier<ScheduledExecutorService> executor;

	SystemDelayScheduler(Supplier<ScheduledExecutorService> executor) {
		this.executor = executor;
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
		ScheduledFuture<?> future = this.executor.get().schedule(action, deadline - read(), TimeUnit.NANOSECONDS);
		return () -> future.cancel(false);
	}

}
