package dev.kubereconciler.cache;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * A small map that keeps its keys and values in one array, in insertion order, for the
 * labels, annotations and data of cached objects.
 *
 * <p>
 * Gson decodes those maps into tree maps that take about 100 bytes plus 48 per entry;
 * this one takes 16 bytes, plus 16 and 8 per entry for its array. It implements
 * {@link Map} itself rather than extending {@link AbstractMap}, whose two cached views
 * would add 8 bytes to every map; its views are made on each call. It is mutable and
 * keeps insertion order, as the decoded maps are, because cached objects reach user code
 * without a copy (listers, mapped watches, event filters): code that changes them, or
 * iterates them to compute a checksum, behaves as before. Lookups scan the array, so it
 * is meant for maps of a few entries. Like {@link java.util.HashMap} it is not
 * thread-safe.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class CompactMap<K, V> implements Map<K, V> {

	private static final Object[] EMPTY = {};

	// keys at even indexes, each followed by its value; replaced, never resized in place,
	// on every structural change, which is how iterators detect one
	private Object[] table;

	CompactMap() {
		this.table = EMPTY;
	}

	/**
	 * Create a map that takes over a table.
	 * @param table keys at even indexes, distinct, each followed by its value
	 */
	CompactMap(Object[] table) {
		if (table.length % 2 != 0) {
			throw new IllegalArgumentException("table must hold key and value pairs");
		}
		this.table = (table.length == 0) ? EMPTY : table;
	}

	private int indexOf(Object key) {
		Object[] table = this.table;
		for (int i = 0; i < table.length; i += 2) {
			if (Objects.equals(table[i], key)) {
				return i;
			}
		}
		return -1;
	}

	@Override
	public int size() {
		return this.table.length / 2;
	}

	@Override
	public boolean isEmpty() {
		return this.table.length == 0;
	}

	@Override
	public boolean containsKey(Object key) {
		return indexOf(key) >= 0;
	}

	@Override
	public boolean containsValue(Object value) {
		Object[] table = this.table;
		for (int i = 1; i < table.length; i += 2) {
			if (Objects.equals(table[i], value)) {
				return true;
			}
		}
		return false;
	}

	@Override
	@SuppressWarnings("unchecked")
	public @Nullable V get(Object key) {
		int index = indexOf(key);
		return (index >= 0) ? (V) this.table[index + 1] : null;
	}

	@Override
	@SuppressWarnings("unchecked")
	public @Nullable V put(K key, V value) {
		int index = indexOf(key);
		if (index >= 0) {
			V previous = (V) this.table[index + 1];
			this.table[index + 1] = value;
			return previous;
		}
		Object[] table = Arrays.copyOf(this.table, this.table.length + 2);
		table[table.length - 2] = key;
		table[table.length - 1] = value;
		this.table = table;
		return null;
	}

	@Override
	@SuppressWarnings("unchecked")
	public @Nullable V remove(Object key) {
		int index = indexOf(key);
		if (index < 0) {
			return null;
		}
		V previous = (V) this.table[index + 1];
		removeAt(index);
		return previous;
	}

	private void removeAt(int index) {
		Object[] table = new Object[this.table.length - 2];
		System.arraycopy(this.table, 0, table, 0, index);
		System.arraycopy(this.table, index + 2, table, index, table.length - index);
		this.table = (table.length == 0) ? EMPTY : table;
	}

	@Override
	public void putAll(Map<? extends K, ? extends V> map) {
		map.forEach(this::put);
	}

	@Override
	public void clear() {
		this.table = EMPTY;
	}

	@Override
	public Set<K> keySet() {
		return new AbstractSet<>() {

			@Override
			public Iterator<K> iterator() {
				return new Projection<>(Map.Entry::getKey);
			}

			@Override
			public int size() {
				return CompactMap.this.size();
			}

			@Override
			public boolean contains(Object key) {
				return containsKey(key);
			}

		};
	}

	@Override
	public Collection<V> values() {
		return new AbstractCollection<>() {

			@Override
			public Iterator<V> iterator() {
				return new Projection<>(Map.Entry::getValue);
			}

			@Override
			public int size() {
				return CompactMap.this.size();
			}

			@Override
			public boolean contains(Object value) {
				return containsValue(value);
			}

		};
	}

	@Override
	public Set<Map.Entry<K, V>> entrySet() {
		// a fresh view each time: a cached one would cost a field in every map
		return new AbstractSet<>() {

			@Override
			public Iterator<Map.Entry<K, V>> iterator() {
				return new EntryIterator();
			}

			@Override
			public int size() {
				return CompactMap.this.size();
			}

		};
	}

	/**
	 * Compare with another map as {@link Map#equals(Object)} says: the same entries, in
	 * any order.
	 */
	@Override
	public boolean equals(@Nullable Object other) {
		if (other == this) {
			return true;
		}
		if (!(other instanceof Map<?, ?> map) || map.size() != size()) {
			return false;
		}
		Object[] table = this.table;
		for (int i = 0; i < table.length; i += 2) {
			Object value = table[i + 1];
			Object theirs = map.get(table[i]);
			if (!Objects.equals(value, theirs) || (theirs == null && !map.containsKey(table[i]))) {
				return false;
			}
		}
		return true;
	}

	@Override
	public int hashCode() {
		int hash = 0;
		Object[] table = this.table;
		for (int i = 0; i < table.length; i += 2) {
			hash += Objects.hashCode(table[i]) ^ Objects.hashCode(table[i + 1]);
		}
		return hash;
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder("{");
		Object[] table = this.table;
		for (int i = 0; i < table.length; i += 2) {
			if (i > 0) {
				text.append(", ");
			}
			text.append((table[i] == this) ? "(this Map)" : table[i])
				.append('=')
				.append((table[i + 1] == this) ? "(this Map)" : table[i + 1]);
		}
		return text.append('}').toString();
	}

	/**
	 * Iterates one part of each entry, the keys or the values, removing through the
	 * entries.
	 */
	private final class Projection<E> implements Iterator<E> {

		private final EntryIterator entries = new EntryIterator();

		private final Function<Map.Entry<K, V>, E> part;

		Projection(Function<Map.Entry<K, V>, E> part) {
			this.part = part;
		}

		@Override
		public boolean hasNext() {
			return this.entries.hasNext();
		}

		@Override
		public E next() {
			return this.part.apply(this.entries.next());
		}

		@Override
		public void remove() {
			this.entries.remove();
		}

	}

	/**
	 * Iterates the entries, failing fast on a structural change made other than through
	 * itself.
	 */
	private final class EntryIterator implements Iterator<Map.Entry<K, V>> {

		private Object[] expected = CompactMap.this.table;

		private int next;

		private int last = -1;

		@Override
		public boolean hasNext() {
			return this.next < this.expected.length;
		}

		@Override
		public Map.Entry<K, V> next() {
			if (CompactMap.this.table != this.expected) {
				throw new ConcurrentModificationException();
			}
			if (!hasNext()) {
				throw new NoSuchElementException();
			}
			this.last = this.next;
			this.next += 2;
			return new Entry(this.last);
		}

		@Override
		public void remove() {
			if (this.last < 0) {
				throw new IllegalStateException();
			}
			if (CompactMap.this.table != this.expected) {
				throw new ConcurrentModificationException();
			}
			removeAt(this.last);
			this.expected = CompactMap.this.table;
			this.next = this.last;
			this.last = -1;
		}

	}

	/**
	 * An entry that writes its value through to the map.
	 */
	private final class Entry extends AbstractMap.SimpleEntry<K, V> {

		@SuppressWarnings("unchecked")
		Entry(int index) {
			super((K) CompactMap.this.table[index], (V) CompactMap.this.table[index + 1]);
		}

		@Override
		public @Nullable V setValue(V value) {
			super.setValue(value);
			return CompactMap.this.put(getKey(), value);
		}

	}

}
