package dev.kubereconciler.ratelimit;

/**
 * A source of monotonic time in nanoseconds, injected into limiters and queues so that tests
 * can control time.
 *
 * <p>Only differences between two readings are meaningful, as with {@link System#nanoTime()}.
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
