package dev.kubereconciler.time;

/**
 * The passive layer of the time abstraction: a source of monotonic time in nanoseconds,
 * injected into limiters and queues so that tests can control time.
 *
 * <p>
 * Only differences between two readings are meaningful, as with
 * {@link System#nanoTime()}. {@link Sleeper} adds waiting on top of it and
 * {@link DelayScheduler} delayed execution, in the way {@code k8s.io/utils/clock} layers
 * its clocks, so that one manual clock in a test drives the limiters, the queue delays,
 * the manager gate and the watchdog alike.
 */
@FunctionalInterface
public interface Ticker {

	/**
	 * Return the current reading of this ticker, in nanoseconds.
	 * @return the current monotonic time in nanoseconds
	 */
	long read();

	/**
	 * Return a ticker backed by {@link System#nanoTime()}.
	 * @return the system ticker
	 */
	static Ticker system() {
		return System::nanoTime;
	}

}
