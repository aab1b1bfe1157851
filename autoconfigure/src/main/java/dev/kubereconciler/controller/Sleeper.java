package dev.kubereconciler.controller;

import java.util.concurrent.TimeUnit;

/**
 * Waits for a number of nanoseconds; injected so that tests control how waits pass.
 */
@FunctionalInterface
public interface Sleeper {

	/**
	 * Wait for the given time.
	 * @param nanos the time to wait, in nanoseconds; nothing happens when not positive
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	void sleep(long nanos) throws InterruptedException;

	/**
	 * Return a sleeper that parks the calling thread.
	 * @return the system sleeper
	 */
	static Sleeper system() {
		return (nanos) -> {
			if (nanos > 0) {
				TimeUnit.NANOSECONDS.sleep(nanos);
			}
		};
	}

}
