package dev.kubereconciler.queue;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.kubereconciler.ratelimit.Ticker;

/**
 * Runs an action once a {@link Ticker} reaches a deadline. A queue asks it for one wake-up at
 * the earliest ready time of its waiting items, so tests can drive delays with a manual clock
 * instead of sleeping, as client-go's fake clock does.
 */
public interface DelayScheduler {

	/**
	 * Return the ticker that deadlines are read from.
	 * @return the ticker
	 */
	Ticker ticker();

	/**
	 * Run the action once the ticker reads at least the deadline.
	 * @param deadline the deadline, as a reading of {@link #ticker()}
	 * @param action the action, which must not block
	 * @return a handle to cancel the action
	 */
	Cancellable schedule(long deadline, Runnable action);

	/**
	 * Return a scheduler on {@link Ticker#system()} that runs actions on the given executor.
	 * The caller owns the executor and shuts it down.
	 * @param executor the executor, typically with a single thread shared by all queues
	 * @return the scheduler
	 */
	static DelayScheduler of(ScheduledExecutorService executor) {
		Ticker ticker = Ticker.system();
		return new DelayScheduler() {

			@Override
			public Ticker ticker() {
				return ticker;
			}

			@Override
			public Cancellable schedule(long deadline, Runnable action) {
				ScheduledFuture<?> future = executor.schedule(action, deadline - ticker.read(), TimeUnit.NANOSECONDS);
				return () -> future.cancel(false);
			}

		};
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
