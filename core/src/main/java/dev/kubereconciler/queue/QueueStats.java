package dev.kubereconciler.queue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What a controller's work queue holds right now, read on demand by gauges and the
 * Actuator endpoint; the counterpart of the events a {@link QueueObserver} receives.
 *
 * @param <T> the type of item
 */
public interface QueueStats<T> {

	/**
	 * Return the number of keys ready to be taken, client-go's {@code workqueue_depth}.
	 * @return the depth
	 */
	int depth();

	/**
	 * Return the number of keys that wait out a delay before they are added.
	 * @return the waiting keys
	 */
	int waiting();

	/**
	 * Return how often a key was requeued through the rate limiter since it was last
	 * forgotten.
	 * @param item the key
	 * @return the number of requeues
	 */
	int numRequeues(T item);

	/**
	 * Return whether the queue hands out keys by priority, as controller-runtime's
	 * priority queue, instead of first in, first out.
	 * @return whether it is a priority queue
	 */
	boolean isPriorityQueue();

	/**
	 * Return the number of keys that workers hold.
	 * @return the keys in flight
	 */
	int inFlight();

	/**
	 * Return the total time that the keys workers hold now have been held, client-go's
	 * {@code workqueue_unfinished_work_seconds}.
	 * @return the unfinished work in nanoseconds
	 */
	long unfinishedWorkNanos();

	/**
	 * Return how long the longest-held key has been held, client-go's
	 * {@code workqueue_longest_running_processor_seconds}.
	 * @return nanoseconds, 0 when no key is held
	 */
	long longestRunningProcessorNanos();

	/**
	 * Return how long a key still waits out its delay.
	 * @param item the key
	 * @return the remaining delay, or empty if the key does not wait
	 */
	Optional<Duration> remainingDelay(T item);

	/**
	 * Return the number of ready keys at each priority; a plain queue reports all of them
	 * at {@link Priorities#NORMAL}.
	 * @return the depth by priority, without zero counts
	 */
	Map<Integer, Integer> depthByPriority();

}
