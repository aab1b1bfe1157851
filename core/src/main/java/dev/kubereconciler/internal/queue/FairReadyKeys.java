package dev.kubereconciler.internal.queue;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Ready keys taken in turns across groups, such as the clusters of a fleet, so that a
 * group that floods the queue cannot starve the others: each group keeps its own order
 * (first in, first out, or by priority), the highest ready priority goes first, and among
 * the groups that have a key at it, the one whose turn came longest ago.
 *
 * <p>
 * There are few groups, so a take looks at each group with ready keys once. One lock
 * guards the structure and the groups' own ready keys.
 */
final class FairReadyKeys implements ReadyKeys {

	private final Function<Object, Object> groupOf;

	private final Supplier<ReadyKeys> order;

	private final Map<Object, Group> groups = new HashMap<>();

	// the groups with ready keys, the one to serve next first
	private final ArrayDeque<Group> turns = new ArrayDeque<>();

	FairReadyKeys(Function<Object, Object> groupOf, Supplier<ReadyKeys> order) {
		this.groupOf = groupOf;
		this.order = order;
	}

	@Override
	public synchronized void offer(KeyEntry entry, int priority) {
		Group group = this.groups.computeIfAbsent(this.groupOf.apply(entry.item),
				(name) -> new Group(this.order.get()));
		group.keys.offer(entry, priority);
		if (group.ready++ == 0) {
			this.turns.addLast(group);
		}
	}

	@Override
	public synchronized void raise(KeyEntry entry, int priority) {
		Group group = this.groups.get(this.groupOf.apply(entry.item));
		if (group != null) {
			group.keys.raise(entry, priority);
		}
	}

	@Override
	public synchronized @Nullable KeyEntry poll() {
		int top = Integer.MIN_VALUE;
		for (Group group : this.turns) {
			top = Math.max(top, group.keys.topPriority());
		}
		for (Iterator<Group> it = this.turns.iterator(); it.hasNext();) {
			Group group = it.next();
			if (group.keys.topPriority() == top) {
				it.remove();
				KeyEntry entry = group.keys.poll();
				if (--group.ready > 0) {
					// its next key waits for the others' turns
					this.turns.addLast(group);
				}
				return entry;
			}
		}
		return null;
	}

	@Override
	public synchronized Map<Integer, Integer> depthByPriority(int depth) {
		Map<Integer, Integer> total = new HashMap<>();
		for (Group group : this.turns) {
			group.keys.depthByPriority(group.ready)
				.forEach((priority, count) -> total.merge(priority, count, Integer::sum));
		}
		return Map.copyOf(total);
	}

	@Override
	public synchronized int topPriority() {
		int top = Integer.MIN_VALUE;
		for (Group group : this.turns) {
			top = Math.max(top, group.keys.topPriority());
		}
		return top;
	}

	private static final class Group {

		final ReadyKeys keys;

		int ready;

		Group(ReadyKeys keys) {
			this.keys = keys;
		}

	}

}
