package dev.kubereconciler.queue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Ready keys in controller-runtime's priority order
 * ({@code pkg/controller/priorityqueue}, {@code lessReady}): the highest priority first,
 * and first in, first out within a priority. A key raised to a higher priority goes to
 * the end of that priority's line, as controller-runtime gives it a new add counter, so
 * that raising keeps FIFO order within each level.
 *
 * <p>
 * Each priority in use has its own FIFO line, and the lines are kept sorted, highest
 * first. There are few of them (low, normal and any set by results), so offering and
 * taking a key cost the same whatever the number of ready keys; an ordered tree of all
 * keys would walk about 17 nodes per operation at 100,000 keys. Raising a key leaves its
 * old place in the lower line behind as a stale node, which is skipped when it reaches
 * the head of that line.
 *
 * <p>
 * One lock guards the structure; a worker holds it only to take one key.
 *
 * @param <T> the type of item
 */
final class PriorityReadyKeys<T> implements ReadyKeys<T> {

	// the lines, highest priority first; a line leaves the list when its last live key
	// is taken, so the list holds only priorities that have ready keys
	private final List<Line<T>> lines = new ArrayList<>();

	// the live node of every ready key; a node in a line that is not here is stale
	private final Map<T, Node<T>> nodes = new HashMap<>();

	@Override
	public synchronized void offer(T item, int priority) {
		Line<T> line = line(priority);
		Node<T> node = new Node<>(item, line);
		this.nodes.put(item, node);
		line.nodes.add(node);
		line.live++;
	}

	@Override
	public synchronized void raise(T item, int priority) {
		Node<T> current = this.nodes.get(item);
		if (current == null || current.line.priority >= priority) {
			return;
		}
		taken(current.line);
		offer(item, priority);
	}

	@Override
	public synchronized T poll() {
		while (!this.lines.isEmpty()) {
			Line<T> top = this.lines.get(0);
			// a line in the list has a live node, so this skips stale ones at most
			Node<T> node = top.nodes.remove();
			if (this.nodes.remove(node.item, node)) {
				taken(top);
				return node.item;
			}
		}
		return null;
	}

	@Override
	public synchronized Map<Integer, Integer> depthByPriority(int ignored) {
		Map<Integer, Integer> depth = new HashMap<>();
		for (Line<T> line : this.lines) {
			depth.put(line.priority, line.live);
		}
		return Map.copyOf(depth);
	}

	private Line<T> line(int priority) {
		int index = 0;
		for (; index < this.lines.size(); index++) {
			Line<T> line = this.lines.get(index);
			if (line.priority == priority) {
				return line;
			}
			if (line.priority < priority) {
				break;
			}
		}
		Line<T> line = new Line<>(priority);
		this.lines.add(index, line);
		return line;
	}

	// a live key of this line was taken or raised out of it
	private void taken(Line<T> line) {
		line.live--;
		if (line.live == 0) {
			// its remaining nodes are stale; a later offer at this priority starts a
			// new line
			this.lines.remove(line);
		}
	}

	private static final class Line<T> {

		final int priority;

		final ArrayDeque<Node<T>> nodes = new ArrayDeque<>();

		int live;

		Line(int priority) {
			this.priority = priority;
		}

	}

	// identity matters: a key raised twice has a stale node in each line it left
	private static final class Node<T> {

		final T item;

		final Line<T> line;

		Node(T item, Line<T> line) {
			this.item = item;
			this.line = line;
		}

	}

}
