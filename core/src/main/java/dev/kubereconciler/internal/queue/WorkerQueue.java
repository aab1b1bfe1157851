package dev.kubereconciler.internal.queue;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.Trigger;

/**
 * The side of a {@link ReconcileQueue} that only a controller's workers use: take the
 * next key while marking the previous one done, with one clock reading for both, and
 * restart a held key's work clock after a wait that was not work on it.
 *
 * @param <T> the type of item
 */
public final class WorkerQueue<T> {

	private final ReconcileQueue<T> queue;

	private final KeyTable<T> table;

	private WorkerQueue(ReconcileQueue<T> queue) {
		this.queue = queue;
		this.table = queue.table();
	}

	/**
	 * Return the worker side of a queue.
	 * @param <T> the type of item
	 * @param queue the queue
	 * @return its worker side
	 */
	public static <T> WorkerQueue<T> of(ReconcileQueue<T> queue) {
		return new WorkerQueue<>(Objects.requireNonNull(queue, "queue must not be null"));
	}

	/**
	 * Return the queue, for everything that is not worker-only.
	 * @return the queue
	 */
	public ReconcileQueue<T> queue() {
		return this.queue;
	}

	/**
	 * Mark the key of an earlier {@code next} {@link ReconcileQueue#done done}, if any,
	 * and take the next one, for a worker that reads the clock itself: the time it read
	 * when it finished one key stands for the end of that key's work and, unless the
	 * worker has to wait, for the start of the next key's. Handing back what {@code next}
	 * returned spares looking the finished key up.
	 * @param done what the caller took and finished, or {@code null}
	 * @param now a reading of the queue's ticker, taken when the caller finished
	 * @return the next key with the cause of its add and when it was taken, or
	 * {@code null} once the queue is shut down
	 * @throws InterruptedException if the waiting thread is interrupted; the finished key
	 * is done all the same
	 */
	public @Nullable Taken<T> next(@Nullable Taken<T> done, long now) throws InterruptedException {
		return this.table.next(done, now);
	}

	/**
	 * Restart the work clock of a key a worker holds, once the worker has waited for
	 * something that is not work on the key, such as the manager gate: work duration,
	 * unfinished work and the longest running processor then leave that wait out.
	 * @param item the key, as returned by {@link #next}
	 */
	public void startWork(T item) {
		this.table.startWork(item);
	}

	/**
	 * Hand a key back now; see {@link ReconcileQueue#add(Object, Trigger, int)}.
	 * @param item the key
	 * @param cause why it is added
	 * @param priority its priority
	 */
	public void add(T item, Trigger cause, int priority) {
		this.queue.add(item, cause, priority);
	}

	/**
	 * Hand a key back after a delay; see
	 * {@link ReconcileQueue#addAfter(Object, java.time.Duration, Trigger, int)}.
	 * @param item the key
	 * @param delay the delay
	 * @param cause why it is added
	 * @param priority its priority
	 */
	public void addAfter(T item, java.time.Duration delay, Trigger cause, int priority) {
		this.queue.addAfter(item, delay, cause, priority);
	}

	/**
	 * Mark a key done; see {@link ReconcileQueue#done}.
	 * @param item the key
	 */
	public void done(T item) {
		this.queue.done(item);
	}

	/**
	 * Return whether the queue has been shut down.
	 * @return whether it is shutting down
	 */
	public boolean isShuttingDown() {
		return this.queue.isShuttingDown();
	}

	/**
	 * A key that a worker took: the key, the cause and priority of the add it was taken
	 * for, and when.
	 *
	 * @param <T> the type of item
	 */
	public static final class Taken<T> {

		private final T item;

		private final Trigger cause;

		private final int priority;

		private final long takenAt;

		// the table's entry of the key, so that marking it done needs no lookup
		final KeyEntry entry;

		Taken(T item, Trigger cause, int priority, long takenAt, KeyEntry entry) {
			this.item = item;
			this.cause = cause;
			this.priority = priority;
			this.takenAt = takenAt;
			this.entry = entry;
		}

		/**
		 * Return the key.
		 * @return the key
		 */
		public T item() {
			return this.item;
		}

		/**
		 * Return the cause of the key's latest add.
		 * @return the cause
		 */
		public Trigger cause() {
			return this.cause;
		}

		/**
		 * Return the priority the key was taken at; a requeue keeps it unless the
		 * reconcile sets another.
		 * @return the priority
		 */
		public int priority() {
			return this.priority;
		}

		/**
		 * Return when the worker took the key, as a reading of the queue's ticker.
		 * @return the reading
		 */
		public long takenAt() {
			return this.takenAt;
		}

		@Override
		public String toString() {
			return "Taken[item=" + this.item + ", cause=" + this.cause + ", priority=" + this.priority + ", takenAt="
					+ this.takenAt + "]";
		}

	}

}
