package dev.kubereconciler.queue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
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

	// without an observer, done() has no use for the clock
	private final boolean observed;

	// A monitor rather than a ReentrantLock: its critical sections are short, and under
	// contention a monitor spins before it parks, where the lock parks at once (a third of the
	// throughput with two workers). Workers and drainers wait on it.
	private final Object lock = new Object();

	// how many threads wait for the held keys to be done; done() wakes them all only then
	private int drainers;

	// All fields below are guarded by the lock.

	private final ArrayDeque<T> queue = new ArrayDeque<>();

	private final Map<T, Entry> dirty = new HashMap<>();

	private final Map<T, Entry> processing = new HashMap<>();

	private final Map<T, Entry> waiting = new HashMap<>();

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
		this.observed = builder.observer != QueueObserver.none();
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
		synchronized (this.lock) {
			if (!this.shuttingDown) {
				if (this.waiting.remove(item) != null) {
					compactLocked();
				}
				addLocked(item, cause, this.ticker.read());
			}
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
		synchronized (this.lock) {
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
			Entry current = this.waiting.get(item);
			if (current != null && current.time - readyAt <= 0) {
				return;
			}
			this.waiting.put(item, new Entry(cause, readyAt));
			this.heap.add(new Waiting<>(item, readyAt));
			compactLocked();
			armLocked(readyAt);
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
		return take(null);
	}

	/**
	 * Mark a key {@link #done} and take the next one, as {@link #get()} does, in one step: a
	 * worker that loops over keys takes the queue's lock once a key instead of twice.
	 * @param done the key the caller finished
	 * @return the next key, or empty once the queue is shut down
	 * @throws InterruptedException if the waiting thread is interrupted; the finished key is
	 * done all the same
	 */
	public Optional<T> doneAndGet(T done) throws InterruptedException {
		Objects.requireNonNull(done, "done must not be null");
		return take(done);
	}

	private Optional<T> take(T done) throws InterruptedException {
		// read outside the lock, which then stays short: the common case does not wait
		long now = this.ticker.read();
		synchronized (this.lock) {
			if (done != null) {
				doneLocked(done, now);
			}
			boolean waited = false;
			while (this.queue.isEmpty() && !this.shuttingDown) {
				this.lock.wait();
				waited = true;
			}
			if (this.shuttingDown) {
				return Optional.empty();
			}
			if (waited) {
				now = this.ticker.read();
			}
			T item = this.queue.poll();
			// the entry that tracked the key while pending now tracks it while held
			Entry entry = this.dirty.remove(item);
			this.observer.dequeued(item, Math.max(0, now - entry.time));
			entry.time = now;
			this.processing.put(item, entry);
			return Optional.of(item);
		}
	}

	/**
	 * Return the cause of the latest add of a key a worker holds.
	 * @param item the key, as returned by {@link #get()}
	 * @return the cause, or {@code null} if no worker holds the key
	 */
	public AddCause cause(T item) {
		synchronized (this.lock) {
			Entry entry = this.processing.get(item);
			return (entry != null) ? entry.cause : null;
		}
	}

	/**
	 * Restart the work clock of a key a worker holds, once the worker has waited for something
	 * that is not work on the key, such as the manager gate: work duration, unfinished work and
	 * the longest running processor then leave that wait out.
	 * @param item the key, as returned by {@link #get()}
	 */
	public void startWork(T item) {
		synchronized (this.lock) {
			Entry entry = this.processing.get(item);
			if (entry != null) {
				entry.time = this.ticker.read();
			}
		}
	}

	/**
	 * Mark a key as finished by its worker; if it was added meanwhile, it is ready again.
	 * @param item the key
	 */
	public void done(T item) {
		long now = this.observed ? this.ticker.read() : 0;
		synchronized (this.lock) {
			doneLocked(item, now);
		}
	}

	private void doneLocked(T item, long now) {
		Entry entry = this.processing.remove(item);
		if (entry == null) {
			return;
		}
		if (this.observed) {
			this.observer.finished(item, now - entry.time);
		}
		if (this.dirty.containsKey(item)) {
			this.queue.add(item);
			wakeWorkerLocked();
		}
		if (this.drainers > 0 && this.processing.isEmpty()) {
			this.lock.notifyAll();
		}
	}

	/**
	 * Stop handing out keys and ignore further adds; waiting keys are dropped. Workers blocked
	 * in {@link #get()} return empty.
	 */
	public void shutDown() {
		synchronized (this.lock) {
			this.shuttingDown = true;
			if (this.wakeUp != null) {
				this.wakeUp.cancel();
				this.wakeUp = null;
			}
			this.lock.notifyAll();
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
		long timeoutNanos = saturatedNanos(timeout);
		// a bound in real time, as the wait itself is; the injected ticker may be a manual one
		long start = System.nanoTime();
		synchronized (this.lock) {
			this.drainers++;
			try {
				while (!this.processing.isEmpty()) {
					long remaining = timeoutNanos - (System.nanoTime() - start);
					if (remaining <= 0) {
						return false;
					}
					TimeUnit.NANOSECONDS.timedWait(this.lock, remaining);
				}
				return true;
			}
			finally {
				this.drainers--;
			}
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
		synchronized (this.lock) {
			Entry entry = this.waiting.get(item);
			return (entry != null) ? Optional.of(Duration.ofNanos(Math.max(0, entry.time - this.ticker.read())))
					: Optional.empty();
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
		synchronized (this.lock) {
			long now = this.ticker.read();
			long total = 0;
			for (Entry entry : this.processing.values()) {
				total += now - entry.time;
			}
			return total;
		}
	}

	/**
	 * Return how long the longest-held key has been held.
	 * @return nanoseconds, 0 when no key is held
	 */
	public long longestRunningProcessorNanos() {
		synchronized (this.lock) {
			long now = this.ticker.read();
			long longest = 0;
			for (Entry entry : this.processing.values()) {
				longest = Math.max(longest, now - entry.time);
			}
			return longest;
		}
	}

	private void addLocked(T item, AddCause cause, long now) {
		Entry pending = this.dirty.get(item);
		if (pending != null) {
			pending.cause = cause;
			return;
		}
		this.dirty.put(item, new Entry(cause, now));
		this.observer.added(item, cause);
		if (!this.processing.containsKey(item)) {
			this.queue.add(item);
			wakeWorkerLocked();
		}
	}

	private void wakeWorkerLocked() {
		// only workers wait while nobody drains: one key, one worker
		if (this.drainers == 0) {
			this.lock.notify();
		}
		else {
			this.lock.notifyAll();
		}
	}

	private void compactLocked() {
		// Keys that left the heap early (an immediate add, an earlier ready time) leave stale
		// entries behind; rebuild once they outnumber the live ones, so memory tracks the
		// waiting keys alone.
		if (this.heap.size() > 2 * this.waiting.size() + 64) {
			this.heap.clear();
			this.waiting.forEach((item, pending) -> this.heap.add(new Waiting<>(item, pending.time)));
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
		synchronized (this.lock) {
			this.wakeUp = null;
			this.armedFor = Long.MAX_VALUE;
			if (this.shuttingDown) {
				return;
			}
			long now = this.ticker.read();
			while (!this.heap.isEmpty()) {
				Waiting<T> next = this.heap.peek();
				Entry pending = this.waiting.get(next.item);
				if (pending == null || pending.time != next.readyAt) {
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
	}

	private int locked(IntSupplier supplier) {
		synchronized (this.lock) {
			return supplier.getAsInt();
		}
	}

	private static long saturatedNanos(Duration duration) {
		if (duration.getSeconds() >= Long.MAX_VALUE / TimeUnit.SECONDS.toNanos(1)) {
			return Long.MAX_VALUE;
		}
		return duration.toNanos();
	}

	/**
	 * Why a key was added, and a time: for a waiting key, its ready time; for a pending key, its
	 * add time; for a held key, when its worker started on it.
	 */
	private static final class Entry {

		AddCause cause;

		long time;

		Entry(AddCause cause, long time) {
			this.cause = cause;
			this.time = time;
		}

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

		private QueueObserver<T> observer = QueueObserver.none();

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
