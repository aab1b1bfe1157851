package dev.kubereconciler.benchmarks;

import java.util.concurrent.ScheduledExecutorService;

import dev.kubereconciler.time.DelayScheduler;

/**
 * Delay schedulers for our engine: the real one, and a diagnostic one whose clock never
 * moves, which shows how much of a result is spent reading the clock.
 */
final class Clocks {

	/** The {@code ticker} parameter value of the real system clock. */
	static final String SYSTEM = "system";

	/** The {@code ticker} parameter value of the frozen clock, for diagnosis only. */
	static final String FROZEN = "frozen";

	private Clocks() {
	}

	/**
	 * Return a scheduler on the given executor.
	 * @param ticker {@link #SYSTEM}, or {@link #FROZEN} for a clock that always reads 0
	 * and so costs nothing, which is only valid where no delay is ever waited for
	 * @param executor the executor that runs delayed actions
	 * @return the scheduler
	 */
	static DelayScheduler scheduler(String ticker, ScheduledExecutorService executor) {
		DelayScheduler system = DelayScheduler.of(executor);
		if (SYSTEM.equals(ticker)) {
			return system;
		}
		if (!FROZEN.equals(ticker)) {
			throw new IllegalArgumentException("Unknown ticker '" + ticker + "'");
		}
		return new DelayScheduler() {

			@Override
			public long read() {
				return 0L;
			}

			@Override
			public void sleep(long nanos) throws InterruptedException {
				system.sleep(nanos);
			}

			@Override
			public Cancellable schedule(long deadline, Runnable action) {
				return system.schedule(system.read() + deadline, action);
			}

		};
	}

}
