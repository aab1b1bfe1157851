package dev.kubereconciler.internal.queue;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.kubereconciler.internal.queue.WorkerQueue.Taken;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.queue.QueueStats;
import dev.kubereconciler.ratelimit.RateLimiter.Decision;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.DelayScheduler.Cancellable;
import dev.kubereconciler.time.DelayScheduler;
import dev.kubereconciler.time.Ticker;

/**
 * A work queue with client-go's surface and invariants: pending keys are deduplicated, a
 * key is never handed to two workers at once, and a key added while a worker holds it is
 * handed out again once that worker is {@link #done}, never lost.
 *
 * <p>
 * Delayed adds wait in one heap ordered by ready time; when a key is added again with a
 * delay, the earlier ready time wins, and an immediate add takes a waiting key out of the
 * heap at once. Nothing is dropped however many keys wait. The queue keeps the
 * {@link Trigger cause} of each key's latest add.
 *
 * <p>
 * Once {@link #shutDown() shut down}, adds are ignored and {@link #get()} hands out no
 * more keys, so no new work starts. Controller workers take keys through the
 * {@link WorkerQueue} side of the queue; {@link #gauges()} reads what the queue holds,
 * for metrics.
 *
 * @param <T> the type of item, with value semantics ({@code equals} and {@code hashCode})
 */
public final class ReconcileQueue<T> {

	private final String name;

	private final RateLimiter<T> rateLimiter;

	private final DelayScheduler scheduler;

	private final Ticker ticker;

	private final KeyTable<T> table;

	private final DelayedAdds<T> delayed;

	private final QueueStats<T> gauges;

	private final boolean priority;

	ReconcileQueue(ReconcileQueueBuilder<T> builder) {
		this.name = builder.name;
		// build() checked both
		this.rateLimiter = Objects.requireNonNull(builder.rateLimiter);
		this.scheduler = Objects.requireNonNull(builder.scheduler);
		this.ticker = this.scheduler;
		this.priority = builder.priority;
		Supplier<ReadyKeys> order = builder.priority ? PriorityReadyKeys::new : ReadyKeys.Fifo::new;
		this.table = new KeyTable<>(this.ticker, builder.observer,
				(builder.fairBy != null) ? new FairReadyKeys(fairBy(builder.fairBy), order) : order.get());
		this.delayed = new DelayedAdds<>(this.scheduler, this.table::add);
		this.gauges = new KeyTableStats<>(this.table, this.delayed, this.rateLimiter, this.priority);
	}

	@SuppressWarnings("unchecked")
	private static <T> Function<Object, Object> fairBy(Function<? super T, ?> fairBy) {
		return (item) -> fairBy.apply((T) item);
	}

	/**
	 * Start building a queue.
	 * @param <T> the type of item
	 * @return a builder
	 */
	public static <T> ReconcileQueueBuilder<T> builder() {
		return new ReconcileQueueBuilder<>();
	}

	/**
	 * Return the queue's name, the {@code name} label of its metrics.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Add a key now, as a watch event does.
	 * @param item the key
	 */
	public void add(T item) {
		add(item, Trigger.EVENT);
	}

	/**
	 * Add a key now. A key that is already pending stays pending once; a key that a
	 * worker holds is handed out again after {@link #done}.
	 * @param item the key
	 * @param cause why it is added
	 */
	public void add(T item, Trigger cause) {
		add(item, cause, Priorities.NORMAL);
	}

	/**
	 * Add a key now with a priority. In priority mode, ready keys are handed out highest
	 * priority first, and a pending key added again keeps the higher of its priorities;
	 * the plain queue ignores priorities.
	 * @param item the key
	 * @param cause why it is added
	 * @param priority its priority, {@link Priorities#NORMAL} for an ordinary add
	 */
	public void add(T item, Trigger cause, int priority) {
		Objects.requireNonNull(item, "item must not be null");
		if (!this.table.isShuttingDown()) {
			int kept = this.delayed.cancel(item, priority);
			this.table.add(item, cause, kept, this.ticker.read());
		}
	}

	/**
	 * Add a key once the delay has passed, or now if the delay is not positive, as a
	 * {@code Result.requeueAfter(d)} does.
	 * @param item the key
	 * @param delay the delay
	 */
	public void addAfter(T item, Duration delay) {
		addAfter(item, delay, Trigger.REQUEUE_AFTER);
	}

	/**
	 * Add a key once the delay has passed, or now if the delay is not positive. A key
	 * that is already pending is left as it is: it will be handed out anyway, and its
	 * reconcile decides about the next one.
	 * @param item the key
	 * @param delay the delay
	 * @param cause why it is added
	 */
	public void addAfter(T item, Duration delay, Trigger cause) {
		addAfter(item, delay, cause, Priorities.NORMAL);
	}

	/**
	 * Add a key with a priority once the delay has passed, as
	 * {@link #addAfter(Object, Duration, Trigger)} does; see
	 * {@link #add(Object, Trigger, int)} for priorities.
	 * @param item the key
	 * @param delay the delay
	 * @param cause why it is added
	 * @param priority its priority
	 */
	public void addAfter(T item, Duration delay, Trigger cause, int priority) {
		Objects.requireNonNull(item, "item must not be null");
		if (this.table.isShuttingDown()) {
			return;
		}
		this.table.observer().retried(item);
		long now = this.ticker.read();
		long nanos = delay.isNegative() ? 0 : saturatedNanos(delay);
		if (nanos == 0) {
			int kept = this.delayed.cancel(item, priority);
			this.table.add(item, cause, kept, now);
			return;
		}
		if (this.table.raiseIfPending(item, priority)) {
			return;
		}
		// a ticker may read anything, negative or near the top, and wrap as
		// System.nanoTime() does: the sum may overflow, and every comparison of ready
		// times is a difference
		this.delayed.schedule(item, cause, priority, now + nanos);
	}

	/**
	 * Add a key after the delay its rate limiter gives for one more failure.
	 * @param item the key
	 * @return the delay and the kind of limiter that decided it
	 */
	public Decision addRateLimited(T item) {
		return addRateLimited(item, Priorities.NORMAL);
	}

	/**
	 * Add a key with a priority after the delay its rate limiter gives for one more
	 * failure.
	 * @param item the key
	 * @param priority its priority, typically the one it was taken with
	 * @return the delay and the kind of limiter that decided it
	 */
	public Decision addRateLimited(T item, int priority) {
		Decision decision = this.rateLimiter.decide(item);
		addAfter(item, decision.delay(), Trigger.RETRY, priority);
		return decision;
	}

	/**
	 * Clear the key's failure history in the rate limiter.
	 * @param item the key
	 */
	public void forget(T item) {
		this.rateLimiter.forget(item);
	}

	/**
	 * Return how many failures the rate limiter has recorded for the key.
	 * @param item the key
	 * @return the failures since the last {@link #forget}
	 */
	public int numRequeues(T item) {
		return this.rateLimiter.numRequeues(item);
	}

	/**
	 * Take the next key, waiting until one is ready. The caller must call {@link #done}
	 * with it.
	 * @return the key, or empty once the queue is shut down
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	public Optional<T> get() throws InterruptedException {
		Taken<T> taken = this.table.take(this.ticker.read());
		return (taken != null) ? Optional.of(taken.item()) : Optional.empty();
	}

	/**
	 * Mark a key as finished by its worker; if it was added meanwhile, it is ready again.
	 * @param item the key
	 */
	public void done(T item) {
		this.table.done(item, this.table.isObserved() ? this.ticker.read() : 0);
	}

	/**
	 * Stop handing out keys and ignore further adds; waiting keys are dropped. Workers
	 * blocked in {@link #get()} return empty.
	 */
	public void shutDown() {
		if (!this.table.isShuttingDown()) {
			this.table.shutDown();
			this.delayed.close();
		}
	}

	/**
	 * {@link #shutDown() Shut down}, then wait for the keys that workers hold to be
	 * {@link #done}. The timeout runs on the queue's clock.
	 * @param timeout the longest time to wait
	 * @return {@code true} if every held key was done in time
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
		shutDown();
		long deadline = this.ticker.read() + saturatedNanos(timeout);
		Cancellable wakeUp = null;
		try {
			// a clock that moves on its own wakes the wait in time; a manual one wakes
			// it here
			wakeUp = this.scheduler.schedule(deadline, this.table::wakeDrainers);
		}
		catch (IllegalStateException | RejectedExecutionException ex) {
			// the scheduler is stopped: the timed wait alone bounds the drain
		}
		try {
			return this.table.awaitDrained(deadline);
		}
		finally {
			if (wakeUp != null) {
				wakeUp.cancel();
			}
		}
	}

	/**
	 * Return whether the queue has been shut down.
	 * @return whether it is shutting down
	 */
	public boolean isShuttingDown() {
		return this.table.isShuttingDown();
	}

	/**
	 * Return the number of keys ready to be handed out, as client-go's {@code Len()}.
	 * @return the depth, 0 once shut down
	 */
	public int depth() {
		return this.gauges.depth();
	}

	/**
	 * Return the number of keys waiting out a delay.
	 * @return the waiting keys
	 */
	public int waiting() {
		return this.gauges.waiting();
	}

	/**
	 * Return whether ready keys are handed out by priority.
	 * @return whether this is a priority queue
	 */
	public boolean isPriorityQueue() {
		return this.priority;
	}

	/**
	 * Return what the queue holds right now, for gauges and the Actuator endpoint.
	 * @return the gauges
	 */
	public QueueStats<T> gauges() {
		return this.gauges;
	}

	KeyTable<T> table() {
		return this.table;
	}

	private static long saturatedNanos(Duration duration) {
		if (duration.getSeconds() >= Long.MAX_VALUE / TimeUnit.SECONDS.toNanos(1)) {
			return Long.MAX_VALUE;
		}
		return duration.toNanos();
	}

}
