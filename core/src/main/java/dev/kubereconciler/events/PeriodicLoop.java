package dev.kubereconciler.events;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.time.DelayScheduler;
import dev.kubereconciler.time.DelayScheduler.Cancellable;

/**
 * Runs a job every period until stopped, as client-go's {@code wait.Until} does: the
 * period counts from the end of the previous run, and a run that throws does not end the
 * loop.
 */
final class PeriodicLoop {

	private static final Logger logger = LoggerFactory.getLogger(PeriodicLoop.class);

	private final DelayScheduler scheduler;

	private final Duration period;

	private final Runnable job;

	private final String name;

	private @Nullable Cancellable next;

	private boolean stopped;

	PeriodicLoop(DelayScheduler scheduler, Duration period, Runnable job, String name) {
		this.scheduler = scheduler;
		this.period = period;
		this.job = job;
		this.name = name;
	}

	synchronized void start() {
		scheduleNext();
	}

	synchronized void stop() {
		this.stopped = true;
		Cancellable next = this.next;
		if (next != null) {
			next.cancel();
			this.next = null;
		}
	}

	private void run() {
		try {
			this.job.run();
		}
		catch (RuntimeException ex) {
			logger.warn("The event {} failed; it runs again in {}", this.name, this.period, ex);
		}
		synchronized (this) {
			scheduleNext();
		}
	}

	private void scheduleNext() {
		if (this.stopped) {
			return;
		}
		try {
			this.next = this.scheduler.schedule(this.scheduler.read() + this.period.toNanos(), this::run);
		}
		catch (RejectedExecutionException ex) {
			// the scheduler's executor shut down: the loop ends with it
			this.stopped = true;
			this.next = null;
		}
	}

}
