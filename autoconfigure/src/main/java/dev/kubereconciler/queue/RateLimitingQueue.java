package dev.kubereconciler.queue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

import dev.kubereconciler.queue.DelayScheduler.Cancellable;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiter.Decision;
import dev.kubereconciler.ratelimit.Ticker;

/**
 * A work queue with client-go's invariants: pending keys are deduplicated, a key is never
 * handed to two workers at once, and a key added while a worker holds it is handed out again
 * once that worker is {@link #done}, never lost.
 *
 * <p>Delayed adds wait in one heap ordered by ready time; when a key is added again with a
 * delay, the earlier ready time wins, and an immediate add takes a waiting key out of the
 * heap at once. Nothing is dropped however many keys wait. The queue keeps the
 * {@link AddCause cause} of each key's latest add.
 *
 * <p>Once {@link #shutDown() shut down}, adds are ignored and {@link #get()} hands out no more
 * keys, so no new work starts.
 *
 * @param <T> the type of item, with value semantics ({@code equals} and {@code hashCode})
 */
public final class RateLimitingQueue<T> {

	private final String name;

	private final RateLimiter<T> rateLimiter;

	private final DelayScheduler scheduler;

	private final Ticker ticker;

	private final QueueObserver<T> observer;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition ready = this.lock.newCondition();

	private final Condition idle = this.lock.newCondition();

	// All fields below are guarded by the lock.

	private final ArrayDeque<T> queue = new ArrayDeque<>();

	private final Map<T, Pending> dirty = new HashMap<>();

	private final Map<T, InFlight> processing = new HashMap<>();

	private final Map<T, Pending> waiting = new HashMap<>();

	// May hold stale entries for keys that moved earlier or left; the waiting map is the truth.
	private final PriorityQueue<Waiting<T>> heap = new PriorityQueue<>();

	private long armedFor = Long.MAX_VALUE;

	private Cancellable wakeUp;

	private boolean shuttingDown;

	private RateLimitingQueue(Builder<T> builder) {
		this.name = builder.name;
		this.rateLimiter = builder.rateLimiter;
		this.scheduler = builder.scheduler;
		this.ticker = builder.scheduler.ticker();
		this.observer = builder.observer;
	}

	/**
	 * Start building a queue.
	 * @param <T> the type of item
	 * @return a builder
	 */
	public static <T> Builder<T> builder() {
		return new Builder<>();
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
		add(item, AddCause.EVENT);
	}

	/**
	 * Add a key now. A key that is already pending stays pending once; a key that a worker
	 * holds is handed out again after {@link #done}.
	 * @param item the key
	 * @param cause why it is added
	 */
	public void add(T item, AddCause cause) {
		Objects.requireNonNull(item, "item must not be null");
		this.lock.lock();
		try {
			if (!this.shuttingDown) {
				if (this.waiting.remove(item) != null) {
					compactLocked();
				}
				addLocked(item, cause, this.ticker.read());
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Add a key once the delay has passed, or now if the delay is not positive.
	 * @param item the key
	 * @param delay the delay
	 * @param cause why it is added
	 */
	public void addAfter(T item, Duration delay, AddCause cause) {
		Objects.requireNonNull(item, "item must not be null");
		this.lock.lock();
		try {
			if (this.shuttingDown) {
				return;
			}
			this.observer.retried(item);
			long now = this.ticker.read();
			long readyAt = now + Math.min(delay.isNegative() ? 0 : saturatedNanos(delay), Long.MAX_VALUE - now);
			if (readyAt - now <= 0) {
				this.waiting.remove(item);
				addLocked(item, cause, now);
				return;
			}
			if (this.dirty.containsKey(item)) {
				// it will be handed out anyway, and its reconcile decides about the next one
				return;
			}
			Pending current = this.waiting.get(item);
			if (current != null && current.since - readyAt <= 0) {
				return;
			}
			this.waiting.put(item, new Pending(cause, readyAt));
			this.heap.add(new Waiting<>(item, readyAt));
			compactLocked();
			armLocked(readyAt);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Add a key after the delay its rate limiter gives for one more failure.
	 * @param item the key
	 * @return the delay and the kind of limiter that decided it
	 */
	public Decision addRateLimited(T item) {
		Decision decision = this.rateLimiter.decide(item);
		addAfter(item, decision.delay(), AddCause.RETRY);
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
	 * Take the next key, waiting until one is ready. The caller must call {@link #done} with
	 * it.
	 * @return the key, or empty once the queue is shut down
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	public Optional<T> get() throws InterruptedException {
		this.lock.lockInterruptibly();
		try {
			while (this.queue.isEmpty() && !this.shuttingDown) {
				this.ready.await();
			}
			if (this.shuttingDown) {
				return Optional.empty();
			}
			T item = this.queue.poll();
			Pending pending = this.dirty.remove(item);
			long now = this.ticker.read();
			this.processing.put(item, new InFlight(pending.cause, now));
			this.observer.dequeued(item, now - pending.since);
			return Optional.of(item);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return the cause of the latest add of a key a worker holds.
	 * @param item the key, as returned by {@link #get()}
	 * @return the cause, or {@code null} if no worker holds the key
	 */
	public AddCause cause(T item) {
		this.lock.lock();
		try {
			InFlight inFlight = this.processing.get(item);
			return (inFlight != null) ? inFlight.cause : null;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Restart the work clock of a key a worker holds, once the worker has waited for something
	 * that is not work on the key, such as the manager gate: work duration, unfinished work and
	 * the longest running processor then leave that wait out.
	 * @param item the key, as returned by {@link #get()}
	 */
	public void startWork(T item) {
		this.lock.lock();
		try {
			InFlight inFlight = this.processing.get(item);
			if (inFlight != null) {
				this.processing.put(item, new InFlight(inFlight.cause, this.ticker.read()));
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Mark a key as finished by its worker; if it was added meanwhile, it is ready again.
	 * @param item the key
	 */
	public void done(T item) {
		this.lock.lock();
		try {
			InFlight inFlight = this.processing.remove(item);
			if (inFlight == null) {
				return;
			}
			this.observer.finished(item, this.ticker.read() - inFlight.startedAt);
			if (this.dirty.containsKey(item)) {
				this.queue.add(item);
				this.ready.signal();
			}
			if (this.processing.isEmpty()) {
				this.idle.signalAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Stop handing out keys and ignore further adds; waiting keys are dropped. Workers blocked
	 * in {@link #get()} return empty.
	 */
	public void shutDown() {
		this.lock.lock();
		try {
			this.shuttingDown = true;
			if (this.wakeUp != null) {
				this.wakeUp.cancel();
				this.wakeUp = null;
			}
			this.ready.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * {@link #shutDown() Shut down}, then wait for the keys that workers hold to be
	 * {@link #done}.
	 * @param timeout the longest time to wait
	 * @return {@code true} if every held key was done in time
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
		shutDown();
		long remaining = saturatedNanos(timeout);
		this.lock.lock();
		try {
			while (!this.processing.isEmpty()) {
				if (remaining <= 0) {
					return false;
				}
				remaining = this.idle.awaitNanos(remaining);
			}
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return whether the queue has been shut down.
	 * @return whether it is shutting down
	 */
	public boolean isShuttingDown() {
		return locked(() -> this.shuttingDown ? 1 : 0) == 1;
	}

	/**
	 * Return the number of keys ready to be handed out, as client-go's {@code Len()}.
	 * @return the depth
	 */
	public int depth() {
		return locked(this.queue::size);
	}

	/**
	 * Return the number of keys waiting out a delay.
	 * @return the waiting keys
	 */
	public int waiting() {
		return locked(this.waiting::size);
	}

	/**
	 * Return how long a key that waits out a delay still waits.
	 * @param item the key
	 * @return the time until the key is ready, or empty if it is not waiting out a delay
	 */
	public Optional<Duration> remainingDelay(T item) {
		this.lock.lock();
		try {
			Pending pending = this.waiting.get(item);
			return (pending != null) ? Optional.of(Duration.ofNanos(Math.max(0, pending.since - this.ticker.read())))
					: Optional.empty();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return the number of keys that workers hold.
	 * @return the keys in flight
	 */
	public int inFlight() {
		return locked(this.processing::size);
	}

	/**
	 * Return the total time that the keys workers hold now have been held.
	 * @return the unfinished work in nanoseconds
	 */
	public long unfinishedWorkNanos() {
		this.lock.lock();
		try {
			long now = this.ticker.read();
			long total = 0;
			for (InFlight inFlight : this.processing.values()) {
				total += now - inFlight.startedAt;
			}
			return total;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return how long the longest-held key has been held.
	 * @return nanoseconds, 0 when no key is held
	 */
	public long longestRunningProcessorNanos() {
		this.lock.lock();
		try {
			long now = this.ticker.read();
			long longest = 0;
			for (InFlight inFlight : this.processing.values()) {
				longest = Math.max(longest, now - inFlight.startedAt);
			}
			return longest;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void addLocked(T item, AddCause cause, long now) {
		Pending pending = this.dirty.get(item);
		if (pending != null) {
			pending.cause = cause;
			return;
		}
		this.dirty.put(item, new Pending(cause, now));
		this.observer.added(item, cause);
		if (!this.processing.containsKey(item)) {
			this.queue.add(item);
			this.ready.signal();
		}
	}

	private void compactLocked() {
		// Keys that left the heap early (an immediate add, an earlier ready time) leave stale
		// entries behind; rebuild once they outnumber the live ones, so memory tracks the
		// waiting keys alone.
		if (this.heap.size() > 2 * this.waiting.size() + 64) {
			this.heap.clear();
			this.waiting.forEach((item, pending) -> this.heap.add(new Waiting<>(item, pending.since)));
		}
	}

	private void armLocked(long readyAt) {
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
		this.lock.lock();
		try {
			this.wakeUp = null;
			this.armedFor = Long.MAX_VALUE;
			if (this.shuttingDown) {
				return;
			}
			long now = this.ticker.read();
			while (!this.heap.isEmpty()) {
				Waiting<T> next = this.heap.peek();
				Pending pending = this.waiting.get(next.item);
				if (pending == null || pending.since != next.readyAt) {
					this.heap.poll();
					continue;
				}
				if (next.readyAt - now > 0) {
					armLocked(next.readyAt);
					return;
				}
				this.heap.poll();
				this.waiting.remove(next.item);
				// pending from its ready time, however late this wake-up ran
				addLocked(next.item, pending.cause, next.readyAt);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private int locked(IntSupplier supplier) {
		this.lock.lock();
		try {
			return supplier.getAsInt();
		}
		finally {
			this.lock.unlock();
		}
	}

	private static long saturatedNanos(Duration duration) {
		if (duration.getSeconds() >= Long.MAX_VALUE / TimeUnit.SECONDS.toNanos(1)) {
			return Long.MAX_VALUE;
		}
		return duration.toNanos();
	}

	/**
	 * Why a key is pending and since when: for a dirty key, its add time; for a waiting key,
	 * its ready time.
	 */
	private static final class Pending {

		AddCause cause;

		final long since;

		Pending(AddCause cause, long since) {
			this.cause = cause;
			this.since = since;
		}

	}

	private record InFlight(AddCause cause, long startedAt) {
	}

	private record Waiting<T>(T item, long readyAt) implements Comparable<Waiting<T>> {

		@Override
		public int compareTo(Waiting<T> other) {
			return Long.compare(this.readyAt - other.readyAt, 0);
		}

	}

	/**
	 * Builder for {@link RateLimitingQueue}.
	 *
	 * @param <T> the type of item
	 */
	public static final class Builder<T> {

		private String name = "";

		private RateLimiter<T> rateLimiter;

		private DelayScheduler scheduler;

		private QueueObserver<T> observer = new QueueObserver<>() {
		};

		private Builder() {
		}

		/**
		 * Name the queue, typically after its controller.
		 * @param name the name
		 * @return this builder
		 */
		public Builder<T> name(String name) {
			this.name = Objects.requireNonNull(name, "name must not be null");
			return this;
		}

		/**
		 * Set the limiter of {@link RateLimitingQueue#addRateLimited}; required.
		 * @param rateLimiter the limiter
		 * @return this builder
		 */
		public Builder<T> rateLimiter(RateLimiter<T> rateLimiter) {
			this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter must not be null");
			return this;
		}

		/**
		 * Set the scheduler of delayed adds, and with it the ticker; required.
		 * @param scheduler the scheduler
		 * @return this builder
		 */
		public Builder<T> scheduler(DelayScheduler scheduler) {
			this.scheduler = Objects.requireNonNull(scheduler, "scheduler must not be null");
			return this;
		}

		/**
		 * Set the observer, for metrics; none by default.
		 * @param observer the observer
		 * @return this builder
		 */
		public Builder<T> observer(QueueObserver<T> observer) {
			this.observer = Objects.requireNonNull(observer, "observer must not be null");
			return this;
		}

		/**
		 * Build the queue.
		 * @return the queue
		 */
		public RateLimitingQueue<T> build() {
			if (this.rateLimiter == null) {
				throw new IllegalStateException("A rate limiter is required");
			}
			if (this.scheduler == null) {
				throw new IllegalStateException("A delay scheduler is required");
			}
			return new RateLimitingQueue<>(this);
		}

	}

}
