package dev.kubereconciler.benchmarks;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * Sends requests at a fixed rate whatever the answers take (an open loop), and times each
 * from the moment the schedule said to send it, so that a request that waited behind a
 * slow one counts that wait too, instead of hiding it by starting late (coordinated
 * omission).
 */
final class OpenLoop {

	private OpenLoop() {
	}

	/**
	 * Send {@code count} requests at {@code rate} per second, request {@code i} due
	 * {@code i / rate} seconds after the start, each run on the given executor.
	 * @param count how many requests
	 * @param rate the requests per second
	 * @param clients the threads that send them; when all are busy a request waits in the
	 * executor's queue, and the wait is part of its latency
	 * @param request sends request {@code i} and returns once it has its answer
	 * @return the outcome
	 * @throws InterruptedException if interrupted while sending or waiting
	 */
	static Outcome run(int count, int rate, Executor clients, IndexedRequest request) throws InterruptedException {
		AtomicLongArray latencies = new AtomicLongArray(count);
		AtomicInteger failures = new AtomicInteger();
		AtomicReference<@Nullable String> firstFailure = new AtomicReference<>();
		CountDownLatch answered = new CountDownLatch(count);
		long start = System.nanoTime();
		for (int i = 0; i < count; i++) {
			// from the start, not from the last due time, so that rounding never drifts
			long due = start + i * TimeUnit.SECONDS.toNanos(1) / rate;
			for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
				LockSupport.parkNanos(wait);
			}
			int index = i;
			clients.execute(() -> {
				try {
					request.send(index);
					latencies.set(index, System.nanoTime() - due);
				}
				catch (Exception ex) {
					failures.incrementAndGet();
					firstFailure.compareAndSet(null, ex.toString());
				}
				finally {
					answered.countDown();
				}
			});
		}
		long sent = System.nanoTime();
		if (!answered.await(5, TimeUnit.MINUTES)) {
			throw new IllegalStateException(answered.getCount() + " of " + count + " requests unanswered after 5 min");
		}
		long[] byIndex = new long[count];
		for (int i = 0; i < count; i++) {
			byIndex[i] = latencies.get(i);
		}
		return new Outcome(byIndex, failures.get(), firstFailure.get(), (sent - start) / 1e9);
	}

	/**
	 * Return the value at a quantile of sorted values, by nearest rank, in milliseconds.
	 * @param sorted nanoseconds, in ascending order
	 * @param quantile between 0 and 1
	 * @return the value, or NaN when there is none
	 */
	static double millis(long[] sorted, double quantile) {
		return ControllerPeers.millis(sorted, quantile);
	}

	/**
	 * One request of the load, by its index.
	 */
	@FunctionalInterface
	interface IndexedRequest {

		void send(int index) throws Exception;

	}

	/**
	 * What a run measured.
	 *
	 * @param latencies by index, from the time due to the answer, in nanoseconds; 0 for a
	 * request that failed
	 * @param failures the requests that threw
	 * @param firstFailure what the first failure threw, or {@code null}
	 * @param seconds how long sending took, from the first due time to the last send
	 */
	record Outcome(long[] latencies, int failures, @Nullable String firstFailure, double seconds) {

		/**
		 * Return the latencies of the requests that succeeded, skipping the first ones.
		 * @param skip how many requests at the start are not counted
		 * @return the latencies in nanoseconds, sorted
		 */
		long[] sorted(int skip) {
			long[] counted = Arrays.stream(this.latencies, Math.min(skip, this.latencies.length), this.latencies.length)
				.filter((latency) -> latency > 0)
				.toArray();
			Arrays.sort(counted);
			return counted;
		}

		int succeeded() {
			return this.latencies.length - this.failures;
		}

	}

}
