package dev.kubereconciler.queue;

import dev.kubereconciler.reconcile.Trigger;

/**
 * Receives what a controller's work queue does, for metrics; the hooks match client-go's
 * {@code workqueue} metrics provider. Every method has an empty default.
 *
 * <p>
 * Callbacks run on the queue's callers' threads, some of them while a key's state is
 * locked, so they must be fast, must not block and must not call back into the queue.
 *
 * @param <T> the type of item
 */
public interface QueueObserver<T> {

	/**
	 * Return the observer that ignores everything; a queue built with it skips the clock
	 * reads that only an observer needs.
	 * @param <T> the type of item
	 * @return the observer
	 */
	@SuppressWarnings("unchecked")
	static <T> QueueObserver<T> none() {
		return (QueueObserver<T>) NoQueueObserver.INSTANCE;
	}

	/**
	 * An item became pending; adds of an item that was already pending are not reported,
	 * as client-go's {@code workqueue_adds_total} does not count them.
	 * @param item the item
	 * @param cause why it was added
	 */
	default void added(T item, Trigger cause) {
	}

	/**
	 * An item became pending, with the priority of that add; by default this is reported
	 * to {@link #added(Object, Trigger)}. The queue calls only this method.
	 * @param item the item
	 * @param cause why it was added
	 * @param priority the priority it was added with
	 */
	default void added(T item, Trigger cause, int priority) {
		added(item, cause);
	}

	/**
	 * A delayed add was requested, as for a rate-limited retry or a requeue-after; this
	 * is client-go's {@code workqueue_retries_total}.
	 * @param item the item
	 */
	default void retried(T item) {
	}

	/**
	 * A worker took an item.
	 * @param item the item
	 * @param queuedNanos how long the item was pending, from its add to now
	 */
	default void dequeued(T item, long queuedNanos) {
	}

	/**
	 * A worker finished an item.
	 * @param item the item
	 * @param workNanos how long the worker held it
	 */
	default void finished(T item, long workNanos) {
	}

}
