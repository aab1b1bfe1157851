package dev.kubereconciler.time;

import java.util.concurrent.TimeUnit;

/**
 * A {@link Ticker} that can also wait for a number of its nanoseconds, so that a waiting
 * thread in a test wakes only when the test moves the same clock past its deadline.
 */
public interface Sleeper extends Ticker {

	/**
	 * Wait for the given time.
	 * @param nanos the time to wait, in nanoseconds; nothing happens when not positive
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	void sleep(long nanos) throws InterruptedException;

	/**
	 * Return a sleeper on {@link System#nanoTime()} that parks the calling thread.
	 * @return the system sleeper
	 */
	static Sleeper system() {
		return SystemSleeper.INSTANCE;
	}

	/**
	 * Parks the calling thread; read through {@link System#nanoTime()}.
	 */
	final class SystemSleeper implements Sleeper {

		static final SystemSleeper INSTANCE = new SystemSleeper();

		private SystemSleeper() {
		}

		@Override
		public long read() {
			return System.nanoTime();
		}

		@Override
		public void sleep(long nanos) throws InterruptedException {
			if (nanos > 0) {
				TimeUnit.NANOSECONDS.sleep(nanos);
			}
		}

	}

}
