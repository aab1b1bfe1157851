package dev.kubereconciler.internal.queue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.kubereconciler.queue.QueueStats;
import dev.kubereconciler.ratelimit.RateLimiter;

/**
 * The {@link QueueStats} of a {@link ReconcileQueue}, read from its keys and delays.
 *
 * @param <T> the type of item
 */
final class KeyTableStats<T> implements QueueStats<T> {

	private final KeyTable<T> table;

	private final DelayedAdds<T> delayed;

	private final RateLimiter<T> rateLimiter;

	private final boolean priority;

	KeyTableStats(KeyTable<T> table, DelayedAdds<T> delayed, RateLimiter<T> rateLimiter, boolean priority) {
		this.table = table;
		this.delayed = delayed;
		this.rateLimiter = rateLimiter;
		this.priority = priority;
	}

	@Override
	public int depth() {
		return this.table.depth();
	}

	@Override
	public int waiting() {
		return this.delayed.size();
	}

	@Override
	public int numRequeues(T item) {
		return this.rateLimiter.numRequeues(item);
	}

	@Override
	public boolean isPriorityQueue() {
		return this.priority;
	}

	@Override
	public int inFlight() {
		return this.table.inFlight();
	}

	@Override
	public long unfinishedWorkNanos() {
		return this.table.unfinishedWorkNanos();
	}

	@Override
	public long longestRunningProcessorNanos() {
		return this.table.longestRunningProcessorNanos();
	}

	@Override
	public Optional<Duration> remainingDelay(T item) {
		long nanos = this.delayed.remainingNanos(item);
		return (nanos >= 0) ? Optional.of(Duration.ofNanos(nanos)) : Optional.empty();
	}

	@Override
	public Map<Integer, Integer> depthByPriority() {
		return this.table.depthByPriority();
	}

}
