package dev.kubereconciler.internal.queue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

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
 * One lock guards the structure, and each entry's {@code readyNode}, its live node; a
 * worker holds it only to take one key.
 */
final class PriorityReadyKeys implements ReadyKeys {

	// the lines, highest priority first; a line leaves the list when its last live key
	// is taken, so the list holds only priorities that have ready keys
	private final List<Line> lines = new ArrayList<>();

	@Override
	public synchronized void offer(KeyEntry entry, int priority) {
		Line line = line(priority);
		Node node = new Node(entry, line);
		// a node in a line that is not its entry's readyNode is stale
		entry.readyNode = node;
		line.nodes.add(node);
		line.live++;
	}

	@Override
	public synchronized void raise(KeyEntry entry, int priority) {
		Node current = (Node) entry.readyNode;
		if (current == null || current.line.priority >= priority) {
			return;
		}
		taken(current.line);
		offer(entry, priority);
	}

	@Override
	public synchronized @Nullable KeyEntry poll() {
		while (!this.lines.isEmpty()) {
			Line top = this.lines.get(0);
			// a line in the list has a live node, so this skips stale ones at most
			Node node = top.nodes.remove();
			if (node.entry.readyNode == node) {
				node.entry.readyNode = null;
				taken(top);
				return node.entry;
			}
		}
		return null;
	}

	@Override
	public synchronized Map<Integer, Integer> depthByPriority(int ignored) {
		Map<Integer, Integer> depth = new HashMap<>();
		for (Line line : this.lines) {
			depth.put(line.priority, line.live);
		}
		return Map.copyOf(depth);
	}

	@Override
	public synchronized int topPriority() {
		// a line in the list has a live key
		return this.lines.isEmpty() ? Integer.MIN_VALUE : this.lines.get(0).priority;
	}

	private Line line(int priority) {
		int index = 0;
		for (; index < this.lines.size(); index++) {
			Line line = this.lines.get(index);
			if (line.priority == priority) {
				return line;
			}
			if (line.priority < priority) {
				break;
			}
		}
		Line line = new Line(priority);
		this.lines.add(index, line);
		return line;
	}

	// a live key of this line was taken or raised out of it
	private void taken(Line line) {
		line.live--;
		if (line.live == 0) {
			// its remaining nodes are stale; a later offer at this priority starts a
			// new line
			this.lines.remove(line);
		}
	}

	private static final class Line {

		final int priority;

		final ArrayDeque<Node> nodes = new ArrayDeque<>();

		int live;

		Line(int priority) {
			this.priority = priority;
		}

	}

	// identity matters: a key raised twice has a stale node in each line it left
	private static final class Node {

		final KeyEntry entry;

		final Line line;

		Node(KeyEntry entry, Line line) {
			this.entry = entry;
			this.line = line;
		}

	}

}
