package dev.kubereconciler.controller;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kubereconciler.queue.ManualScheduler;

/**
 * A {@link Sleeper} on a {@link ManualScheduler}: a sleeping thread wakes when the test
 * advances time past its deadline, never on its own.
 */
public final class ManualSleeper implements Sleeper {

	private final ManualScheduler scheduler;

	private final AtomicInteger sleeping = new AtomicInteger();

	public ManualSleeper(ManualScheduler scheduler) {
		this.scheduler = scheduler;
	}

	@Override
	public void sleep(long nanos) throws InterruptedException {
		if (nanos <= 0) {
			return;
		}
		CountDownLatch wake = new CountDownLatch(1);
		this.scheduler.schedule(this.scheduler.ticker().read() + nanos, wake::countDown);
		this.sleeping.incrementAndGet();
		try {
			wake.await();
		}
		finally {
			this.sleeping.decrementAndGet();
		}
	}

	/**
	 * Return how many threads sleep now.
	 * @return the sleeping threads
	 */
	public int sleeping() {
		return this.sleeping.get();
	}

}
