package dev.kubereconciler.queue;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Ready keys in controller-runtime's priority order
 * ({@code pkg/controller/priorityqueue}, {@code lessReady}): the highest priority first,
 * and first in, first out within a priority. A key raised to a higher priority goes to
 * the end of that priority's line, as controller-runtime gives it a new add counter, so
 * that raising keeps FIFO order within each level.
 *
 * <p>
 * One lock guards the structure; a worker holds it only to take one key.
 *
 * @param <T> the type of item
 */
final class PriorityReadyKeys<T> implements ReadyKeys<T> {

	private final TreeSet<Node<T>> order = new TreeSet<>();

	private final Map<T, Node<T>> nodes = new HashMap<>();

	private final TreeMap<Integer, Integer> depth = new TreeMap<>();

	private long sequence;

	@Override
	public synchronized void offer(T item, int priority) {
		Node<T> node = new Node<>(item, priority, this.sequence++);
		this.nodes.put(item, node);
		this.order.add(node);
		this.depth.merge(priority, 1, Integer::sum);
	}

	@Override
	public synchronized void raise(T item, int priority) {
		Node<T> current = this.nodes.get(item);
		if (current == null || current.priority >= priority) {
			return;
		}
		this.order.remove(current);
		count(current.priority);
		offer(item, priority);
	}

	@Override
	public synchronized T poll() {
		Node<T> first = this.order.pollFirst();
		if (first == null) {
			return null;
		}
		this.nodes.remove(first.item);
		count(first.priority);
		return first.item;
	}

	private void count(int priority) {
		this.depth.computeIfPresent(priority, (key, count) -> (count > 1) ? count - 1 : null);
	}

	@Override
	public synchronized Map<Integer, Integer> depthByPriority(int ignored) {
		return Map.copyOf(this.depth);
	}

	private record Node<T>(T item, int priority, long sequence) implements Comparable<Node<T>> {

		@Override
		public int compareTo(Node<T> other) {
			if (this.priority != other.priority) {
				return Integer.compare(other.priority, this.priority);
			}
			return Long.compare(this.sequence, other.sequence);
		}

	}

}
