package dev.kubereconciler.queue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link QueueGauges} of a {@link RateLimitingQueue}, read from its keys and delays.
 *
 * @param <T> the type of item
 */
final class TableGauges<T> implements QueueGauges<T> {

	private final KeyTable<T> table;

	private final DelayedAdds<T> delayed;

	TableGauges(KeyTable<T> table, DelayedAdds<T> delayed) {
		this.table = table;
		this.delayed = delayed;
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
