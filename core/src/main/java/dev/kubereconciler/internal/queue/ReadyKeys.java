package dev.kubereconciler.internal.queue;

import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jspecify.annotations.Nullable;

/**
 * The entries of a {@link KeyTable} whose keys are ready and held by no worker, in the
 * order workers take them: first in, first out, or by priority. The table counts them
 * with a semaphore, so {@link #poll()} is only called when one is there. Entries, not
 * keys, are kept, so that a worker that takes one needs no lookup in the table.
 */
interface ReadyKeys {

	/**
	 * Make an entry's key ready.
	 * @param entry the entry, which is not ready yet
	 * @param priority its priority
	 */
	void offer(KeyEntry entry, int priority);

	/**
	 * Move a ready entry to a higher priority, if it is still ready.
	 * @param entry the entry
	 * @param priority its new priority, higher than its current one
	 */
	void raise(KeyEntry entry, int priority);

	/**
	 * Take the next entry.
	 * @return the entry, or {@code null} if none is ready, which a ready permit rules out
	 */
	@Nullable KeyEntry poll();

	/**
	 * Return the number of ready keys at each priority.
	 * @param depth the number of ready keys, for an order that does not track priorities
	 * @return the keys by priority, without zero counts
	 */
	Map<Integer, Integer> depthByPriority(int depth);

	/**
	 * Return the priority of the key {@link #poll()} would take.
	 * @return its priority, {@link Integer#MIN_VALUE} when none is ready, and 0 for an
	 * order that does not track priorities
	 */
	int topPriority();

	/**
	 * Ready keys in the order they became ready; priorities are ignored.
	 */
	final class Fifo implements ReadyKeys {

		private final ConcurrentLinkedQueue<KeyEntry> entries = new ConcurrentLinkedQueue<>();

		@Override
		public void offer(KeyEntry entry, int priority) {
			this.entries.offer(entry);
		}

		@Override
		public void raise(KeyEntry entry, int priority) {
		}

		@Override
		public @Nullable KeyEntry poll() {
			return this.entries.poll();
		}

		@Override
		public Map<Integer, Integer> depthByPriority(int depth) {
			// the plain queue does not order by priority, so it reports its depth as
			// one level
			return (depth > 0) ? Map.of(0, depth) : Map.of();
		}

		@Override
		public int topPriority() {
			return this.entries.isEmpty() ? Integer.MIN_VALUE : 0;
		}

	}

}
