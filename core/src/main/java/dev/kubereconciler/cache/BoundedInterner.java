package dev.kubereconciler.cache;

import java.util.concurrent.atomic.AtomicReferenceArray;

import org.jspecify.annotations.Nullable;

/**
 * Shares equal immutable values through a fixed-size table, so that cached objects that
 * hold the same namespace, label key or timestamp hold one instance of it.
 *
 * <p>
 * Unlike {@link String#intern()} or a map of weak references, the table never grows: it
 * has a fixed number of two-slot sets, and a value that misses replaces the least
 * recently used one of its set. It therefore pins at most {@code sets * 2} values, even
 * values no cached object holds any more, and costs nothing per distinct value, so that a
 * value seen once (a label holding an index, say) costs a probe and no memory. A value
 * evicted by a colliding one is only shared less: equal values stay equal. Threads may
 * race on a set; the loser's value is then returned unshared, which is harmless.
 *
 * @param <T> the value type, which must be immutable with value equality
 */
final class BoundedInterner<T> {

	private final AtomicReferenceArray<T> slots;

	private final int mask;

	/**
	 * Create an interner.
	 * @param sets the number of two-slot sets, a power of two
	 */
	BoundedInterner(int sets) {
		if (sets <= 0 || Integer.bitCount(sets) != 1) {
			throw new IllegalArgumentException("sets must be a positive power of two, was " + sets);
		}
		this.slots = new AtomicReferenceArray<>(sets * 2);
		this.mask = sets - 1;
	}

	/**
	 * Return an instance equal to the value, the one already in the table if there is
	 * one.
	 * @param value the value, may be {@code null}
	 * @return the shared instance, or the value itself
	 */
	@Nullable T intern(@Nullable T value) {
		if (value == null) {
			return null;
		}
		int hash = value.hashCode();
		int first = ((hash ^ (hash >>> 16)) & this.mask) << 1;
		T recent = this.slots.get(first);
		if (value.equals(recent)) {
			return recent;
		}
		T older = this.slots.get(first + 1);
		if (value.equals(older)) {
			// most recently used first, so that the set evicts the other one next
			this.slots.lazySet(first + 1, recent);
			this.slots.lazySet(first, older);
			return older;
		}
		this.slots.lazySet(first + 1, recent);
		this.slots.lazySet(first, value);
		return value;
	}

	/**
	 * Return the number of values the table can hold.
	 * @return the capacity
	 */
	int capacity() {
		return this.slots.length();
	}

}
