package dev.kubereconciler.ratelimit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Per-item failure counts, saturating at {@link Integer#MAX_VALUE}, shared by the per-item
 * limiters.
 *
 * @param <T> the type of item
 */
final class FailureCounter<T> {

	// Non-capturing, so one instance serves every call; boxed counts up to 127 come from the
	// Integer cache, which keeps the hot path free of allocation for realistic failure counts.
	private static final BiFunction<Object, Integer, Integer> INCREMENT = (item,
			count) -> (count == null) ? 1 : (count == Integer.MAX_VALUE) ? count : count + 1;

	private final ConcurrentHashMap<T, Integer> counts = new ConcurrentHashMap<>();

	/**
	 * Record one more failure of the item.
	 * @param item the item
	 * @return the number of failures recorded before this one
	 */
	int increment(T item) {
		int count = this.counts.compute(item, INCREMENT);
		return (count == Integer.MAX_VALUE) ? count : count - 1;
	}

	int get(T item) {
		Integer count = this.counts.get(item);
		return (count != null) ? count : 0;
	}

	void forget(T item) {
		this.counts.remove(item);
	}

	int size() {
		return this.counts.size();
	}

	/**
	 * Overwrite the count of an item, so that tests can reach counts no test could loop to.
	 * @param item the item
	 * @param count the count, at least 1
	 */
	void set(T item, int count) {
		this.counts.put(item, count);
	}

}
