package dev.kubereconciler.internal.queue;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import dev.kubereconciler.time.Ticker;

/**
 * The threads that wait for a {@link KeyTable} to have no held key, as a drain on
 * shutdown does. A worker that finishes a key wakes them only while there are any, so
 * that finishing a key costs one volatile read otherwise.
 */
final class DrainWaiters {

	private final Object monitor = new Object();

	private final Ticker ticker;

	private volatile int waiting;

	DrainWaiters(Ticker ticker) {
		this.ticker = ticker;
	}

	/**
	 * Wait until nothing is held, or until the ticker reaches the deadline. The deadline
	 * is read from the injected ticker only; a wake-up scheduled on the same clock ends
	 * the wait when a manual clock moves past it, as real time does.
	 * @param deadline the deadline, as a reading of the ticker
	 * @param held how many keys are held now
	 * @return whether nothing is held
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	boolean await(long deadline, IntSupplier held) throws InterruptedException {
		synchronized (this.monitor) {
			this.waiting++;
			try {
				while (held.getAsInt() > 0) {
					long remaining = deadline - this.ticker.read();
					if (remaining <= 0) {
						return false;
					}
					TimeUnit.NANOSECONDS.timedWait(this.monitor, remaining);
				}
				return true;
			}
			finally {
				this.waiting--;
			}
		}
	}

	/**
	 * Wake the waiting threads, if any, to check again.
	 */
	void wakeIfWaiting() {
		if (this.waiting > 0) {
			wake();
		}
	}

	/**
	 * Wake the waiting threads to check again.
	 */
	void wake() {
		synchronized (this.monitor) {
			this.monitor.notifyAll();
		}
	}

}
