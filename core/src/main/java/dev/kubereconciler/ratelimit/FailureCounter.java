package dev.kubereconciler.ratelimit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Per-item failure counts shared by the per-item limiters; an item's entry lives from its
 * first failure until it is forgotten.
 *
 * @param <T> the type of item
 */
final class FailureCounter<T> {

	// Counts are longs so that the int-sized answers can saturate exactly at
	// Integer.MAX_VALUE: an int counter could not tell its last step from being stuck
	// there. The function captures nothing, so one instance serves every call, and
	// counts up to 127 come from the Long cache: no allocation on the hot path for
	// realistic counts.
	private static final BiFunction<Object, Long, Long> INCREMENT = (item, count) -> (count == null) ? 1L
			: (count == Long.MAX_VALUE) ? count : count + 1;

	private final ConcurrentHashMap<T, Long> counts = new ConcurrentHashMap<>();

	/**
	 * Record one more failure of the item.
	 * @param item the item
	 * @return the number of failures recorded before this one, saturated at
	 * {@link Integer#MAX_VALUE}
	 */
	int increment(T item) {
		return saturate(this.counts.compute(item, INCREMENT) - 1);
	}

	/**
	 * Return the failures of the item.
	 * @param item the item
	 * @return the failures since the item was last forgotten, saturated at
	 * {@link Integer#MAX_VALUE}
	 */
	int get(T item) {
		Long count = this.counts.get(item);
		return (count != null) ? saturate(count) : 0;
	}

	void forget(T item) {
		// most reconciles succeed while nothing fails: skip the hashing then
		if (!this.counts.isEmpty()) {
			this.counts.remove(item);
		}
	}

	int size() {
		return this.counts.size();
	}

	/**
	 * Overwrite the count of an item, so that tests can reach counts no test could loop
	 * to.
	 * @param item the item
	 * @param count the count, at least 1
	 */
	void set(T item, long count) {
		this.counts.put(item, count);
	}

	private static int saturate(long count) {
		return (int) Math.min(count, Integer.MAX_VALUE);
	}

}
