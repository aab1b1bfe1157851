package dev.kubereconciler.time;

import java.util.concurrent.ScheduledExecutorService;

/**
 * The top layer of the time abstraction: a {@link Sleeper} that also runs an action once
 * its reading reaches a deadline. A queue asks it for one wake-up at the earliest ready
 * time of its waiting items, so tests drive delays with a manual clock instead of
 * sleeping, as client-go's fake clock does.
 */
public interface DelayScheduler extends Sleeper {

	/**
	 * Run the action once this clock reads at least the deadline.
	 * @param deadline the deadline, as a reading of {@link #read()}
	 * @param action the action, which must not block
	 * @return a handle to cancel the action
	 */
	Cancellable schedule(long deadline, Runnable action);

	/**
	 * Return a scheduler on {@link System#nanoTime()} that runs actions on the given
	 * executor and sleeps by parking the calling thread. The caller owns the executor and
	 * shuts it down.
	 * @param executor the executor, typically with a single thread shared by all queues
	 * @return the scheduler
	 */
	static DelayScheduler of(ScheduledExecutorService executor) {
		return new SystemDelayScheduler(() -> executor);
	}

	/**
	 * A scheduled action that can be cancelled.
	 */
	@FunctionalInterface
	interface Cancellable {

		/**
		 * Cancel the action if it has not run yet.
		 */
		void cancel();

	}

}
