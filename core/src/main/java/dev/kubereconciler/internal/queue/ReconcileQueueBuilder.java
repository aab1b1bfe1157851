package dev.kubereconciler.internal.queue;

import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.time.DelayScheduler;

/**
 * Builds a {@link ReconcileQueue}.
 *
 * @param <T> the type of item
 */
public final class ReconcileQueueBuilder<T> {

	String name = "";

	@Nullable RateLimiter<T> rateLimiter;

	@Nullable DelayScheduler scheduler;

	QueueObserver<T> observer = QueueObserver.none();

	boolean priority;

	ReconcileQueueBuilder() {
	}

	/**
	 * Name the queue, typically after its controller.
	 * @param name the name
	 * @return this builder
	 */
	public ReconcileQueueBuilder<T> name(String name) {
		this.name = Objects.requireNonNull(name, "name must not be null");
		return this;
	}

	/**
	 * Set the limiter of {@link ReconcileQueue#addRateLimited}; required.
	 * @param rateLimiter the limiter
	 * @return this builder
	 */
	public ReconcileQueueBuilder<T> rateLimiter(RateLimiter<T> rateLimiter) {
		this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter must not be null");
		return this;
	}

	/**
	 * Set the scheduler of delayed adds, and with it the clock; required.
	 * @param scheduler the scheduler
	 * @return this builder
	 */
	public ReconcileQueueBuilder<T> scheduler(DelayScheduler scheduler) {
		this.scheduler = Objects.requireNonNull(scheduler, "scheduler must not be null");
		return this;
	}

	/**
	 * Set the observer, for metrics; none by default.
	 * @param observer the observer
	 * @return this builder
	 */
	public ReconcileQueueBuilder<T> observer(QueueObserver<T> observer) {
		this.observer = Objects.requireNonNull(observer, "observer must not be null");
		return this;
	}

	/**
	 * Hand out ready keys by priority, as controller-runtime's priority queue does,
	 * instead of first in, first out; off by default.
	 * @param priority whether to order by priority
	 * @return this builder
	 */
	public ReconcileQueueBuilder<T> priority(boolean priority) {
		this.priority = priority;
		return this;
	}

	@Nullable Function<? super T, ?> fairBy;

	/**
	 * Take ready keys in turns across the groups this function puts them in, such as the
	 * clusters of a fleet, so that one group's flood cannot starve the others; within a
	 * group, and between groups at different priorities, the queue's order holds. By
	 * default there are no groups.
	 * @param fairBy the group of a key
	 * @return this builder
	 */
	public ReconcileQueueBuilder<T> fairBy(Function<? super T, ?> fairBy) {
		this.fairBy = fairBy;
		return this;
	}

	/**
	 * Build the queue.
	 * @return the queue
	 */
	public ReconcileQueue<T> build() {
		if (this.rateLimiter == null) {
			throw new IllegalStateException("A rate limiter is required");
		}
		if (this.scheduler == null) {
			throw new IllegalStateException("A delay scheduler is required");
		}
		return new ReconcileQueue<>(this);
	}

}
