package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Function;

import dev.kubereconciler.time.Ticker;

/**
 * Replays a failure storm against a rate limiter on a virtual clock, so that the retry
 * load a limiter lets through can be compared deterministically, without waiting.
 *
 * <p>
 * Every item is attempted at time 0 and fails on every attempt; after each failure it is
 * requeued at {@code now + when(item)}. Attempts at the same instant run in the order
 * they were scheduled. Processing itself takes no time, so a limiter that never delays
 * would retry forever at one instant: the run stops with an {@link IllegalStateException}
 * after {@code attemptLimit} attempts (10 million by default).
 */
public final class StormSimulator {

	private static final long DEFAULT_ATTEMPT_LIMIT = 10_000_000;

	private final int items;

	private final Duration horizon;

	private final Duration bucketWidth;

	private final long attemptLimit;

	/**
	 * Create a simulator.
	 * @param items how many items fail, not negative
	 * @param horizon how long to simulate, positive; attempts at or after it do not
	 * happen
	 * @param bucketWidth the width of a reporting bucket, positive
	 */
	public StormSimulator(int items, Duration horizon, Duration bucketWidth) {
		this(items, horizon, bucketWidth, DEFAULT_ATTEMPT_LIMIT);
	}

	/**
	 * Create a simulator.
	 * @param items how many items fail, not negative
	 * @param horizon how long to simulate, positive; attempts at or after it do not
	 * happen
	 * @param bucketWidth the width of a reporting bucket, positive
	 * @param attemptLimit how many attempts may happen before the run is abandoned,
	 * positive
	 */
	public StormSimulator(int items, Duration horizon, Duration bucketWidth, long attemptLimit) {
		if (items < 0) {
			throw new IllegalArgumentException("items must not be negative but was " + items);
		}
		if (horizon == null || horizon.isNegative() || horizon.isZero()) {
			throw new IllegalArgumentException("horizon must be positive but was " + horizon);
		}
		if (bucketWidth == null || bucketWidth.isNegative() || bucketWidth.isZero()) {
			throw new IllegalArgumentException("bucketWidth must be positive but was " + bucketWidth);
		}
		if (attemptLimit < 1) {
			throw new IllegalArgumentException("attemptLimit must be positive but was " + attemptLimit);
		}
		this.items = items;
		this.horizon = horizon;
		this.bucketWidth = bucketWidth;
		this.attemptLimit = attemptLimit;
	}

	/**
	 * Run the storm against a fresh limiter.
	 * @param limiterFactory creates the limiter from the simulator's virtual ticker,
	 * which starts at 0
	 * @return the attempts per bucket
	 */
	public Storm run(Function<Ticker, ? extends RateLimiter<Integer>> limiterFactory) {
		VirtualTicker clock = new VirtualTicker();
		RateLimiter<Integer> limiter = limiterFactory.apply(clock);
		long horizonNanos = DurationNanos.toNanos(this.horizon);
		long widthNanos = DurationNanos.toNanos(this.bucketWidth);
		long[] attempts = new long[Math.toIntExact((horizonNanos + widthNanos - 1) / widthNanos)];
		PriorityQueue<Attempt> pending = new PriorityQueue<>(
				Comparator.comparingLong(Attempt::at).thenComparingLong(Attempt::sequence));
		long sequence = 0;
		for (int item = 0; item < this.items; item++) {
			pending.add(new Attempt(0, sequence++, item));
		}
		long total = 0;
		while (!pending.isEmpty()) {
			Attempt attempt = pending.poll();
			clock.now = attempt.at();
			attempts[(int) (attempt.at() / widthNanos)]++;
			if (++total > this.attemptLimit) {
				throw new IllegalStateException("Abandoned the storm after " + this.attemptLimit + " attempts at "
						+ Duration.ofNanos(attempt.at()) + "; does the limiter ever delay?");
			}
			long delay = DurationNanos.toNanos(limiter.when(attempt.item()));
			if (delay < horizonNanos - attempt.at()) {
				pending.add(new Attempt(attempt.at() + delay, sequence++, attempt.item()));
			}
		}
		List<Long> counts = new ArrayList<>(attempts.length);
		for (long count : attempts) {
			counts.add(count);
		}
		return new Storm(this.bucketWidth, counts);
	}

	/**
	 * The outcome of a storm.
	 *
	 * @param bucketWidth the width of each bucket
	 * @param attempts the attempts (first tries and retries) that started in each bucket,
	 * in time order
	 */
	public record Storm(Duration bucketWidth, List<Long> attempts) {

		public Storm {
			attempts = List.copyOf(attempts);
		}

		/**
		 * Return the attempts of all buckets.
		 * @return the total number of attempts
		 */
		public long total() {
			return this.attempts.stream().mapToLong(Long::longValue).sum();
		}

	}

	private record Attempt(long at, long sequence, int item) {
	}

	private static final class VirtualTicker implements Ticker {

		private long now;

		@Override
		public long read() {
			return this.now;
		}

	}

}
