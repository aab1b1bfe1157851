package dev.kubereconciler.internal.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.DelayScheduler;
import dev.kubereconciler.time.DelayScheduler.Cancellable;
import dev.kubereconciler.time.Ticker;

/**
 * The keys of a {@link ReconcileQueue} that wait out a delay: one heap ordered by ready
 * time, and one wake-up from the {@link DelayScheduler} at the earliest of them, which
 * adds the due keys to the queue. Nothing is dropped, however many keys wait. A key that
 * is scheduled again keeps the earlier ready time and the higher priority, as
 * controller-runtime's priority queue keeps "the max of the passed priorities and the min
 * of possible durations".
 *
 * @param <T> the type of item
 */
final class DelayedAdds<T> {

	private final DelayScheduler scheduler;

	private final Ticker ticker;

	private final Release<T> release;

	// The fields below are guarded by this object.

	private final Map<T, Delay> waiting = new HashMap<>();

	// May hold stale entries for keys that moved earlier or left; the waiting map is
	// the truth.
	private final PriorityQueue<Waiting<T>> heap = new PriorityQueue<>();

	private long armedFor = Long.MAX_VALUE;

	private @Nullable Cancellable wakeUp;

	private boolean closed;

	// read without the lock, so that adds of keys that do not wait skip it
	private volatile int size;

	DelayedAdds(DelayScheduler scheduler, Release<T> release) {
		this.scheduler = scheduler;
		this.ticker = scheduler;
		this.release = release;
	}

	/**
	 * Let a key wait until the ready time, unless it already waits for an earlier one.
	 * @param item the key
	 * @param cause why it is added
	 * @param priority its priority
	 * @param readyAt when it is due, as a reading of the ticker
	 */
	synchronized void schedule(T item, Trigger cause, int priority, long readyAt) {
		if (this.closed) {
			return;
		}
		Delay current = this.waiting.get(item);
		if (current != null && current.readyAt - readyAt <= 0) {
			if (priority > current.priority) {
				this.waiting.put(item, new Delay(current.cause, priority, current.readyAt));
			}
			return;
		}
		int kept = (current != null) ? Math.max(current.priority, priority) : priority;
		this.waiting.put(item, new Delay(cause, kept, readyAt));
		this.size = this.waiting.size();
		this.heap.add(new Waiting<>(item, readyAt));
		compact();
		arm(readyAt);
	}

	/**
	 * Stop a key from waiting, because it was added without delay.
	 * @param item the key
	 * @param priority the priority of that add
	 * @return the higher of that priority and the one the key waited with
	 */
	int cancel(T item, int priority) {
		if (this.size == 0) {
			return priority;
		}
		synchronized (this) {
			Delay removed = this.waiting.remove(item);
			if (removed == null) {
				return priority;
			}
			this.size = this.waiting.size();
			compact();
			return Math.max(priority, removed.priority);
		}
	}

	int size() {
		return this.size;
	}

	/**
	 * Return how long a key still waits.
	 * @param item the key
	 * @return the nanoseconds until it is due, or {@code -1} if it does not wait
	 */
	synchronized long remainingNanos(T item) {
		Delay delay = this.waiting.get(item);
		return (delay != null) ? Math.max(0, delay.readyAt - this.ticker.read()) : -1;
	}

	/**
	 * Drop every waiting key and the wake-up.
	 */
	synchronized void close() {
		this.closed = true;
		if (this.wakeUp != null) {
			this.wakeUp.cancel();
			this.wakeUp = null;
		}
	}

	private void compact() {
		// Keys that left the heap early (an immediate add, an earlier ready time) leave
		// stale entries behind; rebuild once they outnumber the live ones, so memory
		// tracks the waiting keys alone.
		if (this.heap.size() > 2 * this.waiting.size() + 64) {
			this.heap.clear();
			this.waiting.forEach((item, delay) -> this.heap.add(new Waiting<>(item, delay.readyAt)));
		}
	}

	private void arm(long readyAt) {
		if (readyAt - this.armedFor >= 0 && this.wakeUp != null) {
			return;
		}
		if (this.wakeUp != null) {
			this.wakeUp.cancel();
		}
		this.armedFor = readyAt;
		this.wakeUp = this.scheduler.schedule(readyAt, this::releaseDue);
	}

	private void releaseDue() {
		List<Waiting<T>> due = new ArrayList<>();
		List<Delay> delays = new ArrayList<>();
		synchronized (this) {
			this.wakeUp = null;
			this.armedFor = Long.MAX_VALUE;
			if (this.closed) {
				return;
			}
			long now = this.ticker.read();
			while (!this.heap.isEmpty()) {
				Waiting<T> next = this.heap.peek();
				Delay delay = this.waiting.get(next.item);
				if (delay == null || delay.readyAt != next.readyAt) {
					this.heap.poll();
					continue;
				}
				if (next.readyAt - now > 0) {
					arm(next.readyAt);
					break;
				}
				this.heap.poll();
				this.waiting.remove(next.item);
				due.add(next);
				delays.add(delay);
			}
			this.size = this.waiting.size();
		}
		for (int i = 0; i < due.size(); i++) {
			// pending from its ready time, however late this wake-up ran
			Delay delay = delays.get(i);
			this.release.add(due.get(i).item, delay.cause, delay.priority, delay.readyAt);
		}
	}

	/**
	 * Adds a due key to the queue.
	 *
	 * @param <T> the type of item
	 */
	@FunctionalInterface
	interface Release<T> {

		void add(T item, Trigger cause, int priority, long addedAt);

	}

	private record Delay(Trigger cause, int priority, long readyAt) {
	}

	private record Waiting<T>(T item, long readyAt) implements Comparable<Waiting<T>> {

		@Override
		public int compareTo(Waiting<T> other) {
			return Long.compare(this.readyAt - other.readyAt, 0);
		}

	}

}
