package dev.kubereconciler.queue;

import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The keys of a {@link KeyTable} that are ready and held by no worker, in the order
 * workers take them: first in, first out, or by priority. The table counts them with a
 * semaphore, so {@link #poll()} is only called when a key is there.
 *
 * @param <T> the type of item
 */
interface ReadyKeys<T> {

	/**
	 * Return ready keys in plain FIFO order; priorities are ignored.
	 * @param <T> the type of item
	 * @return the keys
	 */
	static <T> ReadyKeys<T> fifo() {
		return new Fifo<>();
	}

	/**
	 * Return ready keys ordered by priority, highest first, FIFO within a priority.
	 * @param <T> the type of item
	 * @return the keys
	 */
	static <T> ReadyKeys<T> byPriority() {
		return new PriorityReadyKeys<>();
	}

	/**
	 * Make a key ready.
	 * @param item the key, which is not ready yet
	 * @param priority its priority
	 */
	void offer(T item, int priority);

	/**
	 * Move a ready key to a higher priority, if it is still ready.
	 * @param item the key
	 * @param priority its new priority, higher than its current one
	 */
	void raise(T item, int priority);

	/**
	 * Take the next key.
	 * @return the key
	 */
	T poll();

	/**
	 * Return the number of ready keys at each priority.
	 * @param depth the number of ready keys, for an order that does not track priorities
	 * @return the keys by priority, without zero counts
	 */
	Map<Integer, Integer> depthByPriority(int depth);

	/**
	 * Ready keys in the order they became ready.
	 *
	 * @param <T> the type of item
	 */
	final class Fifo<T> implements ReadyKeys<T> {

		private final ConcurrentLinkedQueue<T> keys = new ConcurrentLinkedQueue<>();

		@Override
		public void offer(T item, int priority) {
			this.keys.offer(item);
		}

		@Override
		public void raise(T item, int priority) {
		}

		@Override
		public T poll() {
			return this.keys.poll();
		}

		@Override
		public Map<Integer, Integer> depthByPriority(int depth) {
			// the plain queue does not order by priority, so it reports its depth as one
			// level
			return (depth > 0) ? Map.of(0, depth) : Map.of();
		}

	}

}
