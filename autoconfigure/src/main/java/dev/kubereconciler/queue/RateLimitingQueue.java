package dev.kubereconciler.queue;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import dev.kubereconciler.ratelimit.DelayScheduler;
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
 * <p>Workers contend on no common lock: each key's state changes under that key's own entry,
 * ready keys travel through a lock-free queue, and a semaphore counts them for the workers
 * that wait.
 *
 * @param <T> the type of item, with value semantics ({@code equals} and {@code hashCode})
 */
public final class RateLimitingQueue<T> {

	// enough permits that every worker waiting now or later passes at once after a shutdown
	private static final int SHUTDOWN_PERMITS = Integer.MAX_VALUE / 2;

	private final String name;

	private final RateLimiter<T> rateLimiter;

	private final Ticker ticker;

	private final QueueObserver<T> observer;

	// without an observer, done() has no use for the clock
	private final boolean observed;

	// every key that is pending or held; a key's entry guards its own state
	private final ConcurrentHashMap<T, Entry> entries = new ConcurrentHashMap<>();

	// pending keys that no worker holds, in the order they became ready; one permit each
	private final ConcurrentLinkedQueue<T> ready = new ConcurrentLinkedQueue<>();

	private final Semaphore readyPermits = new Semaphore(0);

	private final DelayedAdds<T> delayed;

	private final Object drainMonitor = new Object();

	private volatile int drainers;

	private volatile boolean shuttingDown;

	private RateLimitingQueue(Builder<T> builder) {
		this.name = builder.name;
		this.rateLimiter = builder.rateLimiter;
		this.ticker = builder.scheduler;
		this.observer = builder.observer;
		this.observed = builder.observer != QueueObserver.none();
		this.delayed = new DelayedAdds<>(builder.scheduler, this::addNow);
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
		if (!this.shuttingDown) {
			this.delayed.cancel(item);
			addNow(item, cause, this.ticker.read());
		}
	}

	private void addNow(T item, AddCause cause, long now) {
		if (this.shuttingDown) {
			return;
		}
		while (true) {
			Entry entry = this.entries.get(item);
			if (entry == null) {
				Entry fresh = new Entry(cause, now);
				if (this.entries.putIfAbsent(item, fresh) == null) {
					this.observer.added(item, cause);
					makeReady(item);
					return;
				}
				continue;
			}
			synchronized (entry) {
				if (entry.state == Entry.RETIRED) {
					// done() is removing it; add anew
					continue;
				}
				if (entry.state == Entry.HELD) {
					entry.state = Entry.HELD_DIRTY;
					entry.nextCause = cause;
					entry.nextAddedAt = now;
					this.observer.added(item, cause);
				}
				else if (entry.state == Entry.HELD_DIRTY) {
					entry.nextCause = cause;
				}
				else {
					entry.cause = cause;
				}
				return;
			}
		}
	}

	private void makeReady(T item) {
		this.ready.offer(item);
		this.readyPermits.release();
	}

	/**
	 * Add a key once the delay has passed, or now if the delay is not positive.
	 * @param item the key
	 * @param delay the delay
	 * @param cause why it is added
	 */
	public void addAfter(T item, Duration delay, AddCause cause) {
		Objects.requireNonNull(item, "item must not be null");
		if (this.shuttingDown) {
			return;
		}
		this.observer.retried(item);
		long now = this.ticker.read();
		long readyAt = now + Math.min(delay.isNegative() ? 0 : saturatedNanos(delay), Long.MAX_VALUE - now);
		if (readyAt - now <= 0) {
			this.delayed.cancel(item);
			addNow(item, cause, now);
			return;
		}
		Entry entry = this.entries.get(item);
		if (entry != null && entry.isPending()) {
			// it will be handed out anyway, and its reconcile decides about the next one
			return;
		}
		this.delayed.schedule(item, cause, readyAt);
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
		Taken<T> taken = next(null, this.ticker.read());
		return (taken != null) ? Optional.of(taken.item()) : Optional.empty();
	}

	/**
	 * Mark a key {@link #done} and take the next one, as {@link #get()} does.
	 * @param done the key the caller finished
	 * @return the next key, or empty once the queue is shut down
	 * @throws InterruptedException if the waiting thread is interrupted; the finished key is
	 * done all the same
	 */
	public Optional<T> doneAndGet(T done) throws InterruptedException {
		Taken<T> taken = next(Objects.requireNonNull(done, "done must not be null"), this.ticker.read());
		return (taken != null) ? Optional.of(taken.item()) : Optional.empty();
	}

	/**
	 * Mark a key {@link #done}, if any, and take the next one, for a worker that reads the
	 * clock itself: the time it read when it finished one key stands for the end of that key's
	 * work and, unless the worker has to wait, for the start of the next key's.
	 * @param done the key the caller finished, or {@code null}
	 * @param now a reading of the queue's ticker, taken when the caller finished
	 * @return the next key with the cause of its add and when it was taken, or {@code null}
	 * once the queue is shut down
	 * @throws InterruptedException if the waiting thread is interrupted; the finished key is
	 * done all the same
	 */
	public Taken<T> next(T done, long now) throws InterruptedException {
		if (done != null) {
			doneAt(done, now);
		}
		long takenAt = now;
		if (!this.readyPermits.tryAcquire()) {
			this.readyPermits.acquire();
			takenAt = this.ticker.read();
		}
		if (this.shuttingDown) {
			return null;
		}
		T item = this.ready.poll();
		Entry entry = this.entries.get(item);
		long queued;
		AddCause cause;
		synchronized (entry) {
			queued = Math.max(0, takenAt - entry.time);
			entry.state = Entry.HELD;
			entry.time = takenAt;
			cause = entry.cause;
		}
		this.observer.dequeued(item, queued);
		return new Taken<>(item, cause, takenAt);
	}

	/**
	 * Return the cause of the latest add of a key a worker holds.
	 * @param item the key, as returned by {@link #get()}
	 * @return the cause, or {@code null} if no worker holds the key
	 */
	public AddCause cause(T item) {
		Entry entry = this.entries.get(item);
		if (entry == null) {
			return null;
		}
		synchronized (entry) {
			return entry.isHeld() ? entry.cause : null;
		}
	}

	/**
	 * Restart the work clock of a key a worker holds, once the worker has waited for something
	 * that is not work on the key, such as the manager gate: work duration, unfinished work and
	 * the longest running processor then leave that wait out.
	 * @param item the key, as returned by {@link #get()}
	 */
	public void startWork(T item) {
		Entry entry = this.entries.get(item);
		if (entry != null) {
			long now = this.ticker.read();
			synchronized (entry) {
				if (entry.isHeld()) {
					entry.time = now;
				}
			}
		}
	}

	/**
	 * Mark a key as finished by its worker; if it was added meanwhile, it is ready again.
	 * @param item the key
	 */
	public void done(T item) {
		doneAt(item, this.observed ? this.ticker.read() : 0);
	}

	private void doneAt(T item, long now) {
		Entry entry = this.entries.get(item);
		if (entry == null) {
			return;
		}
		long worked;
		synchronized (entry) {
			if (!entry.isHeld()) {
				return;
			}
			worked = now - entry.time;
			if (entry.state == Entry.HELD_DIRTY) {
				entry.state = Entry.PENDING;
				entry.cause = entry.nextCause;
				entry.time = entry.nextAddedAt;
				makeReady(item);
			}
			else {
				entry.state = Entry.RETIRED;
				this.entries.remove(item, entry);
			}
		}
		if (this.observed) {
			this.observer.finished(item, worked);
		}
		if (this.drainers > 0) {
			synchronized (this.drainMonitor) {
				this.drainMonitor.notifyAll();
			}
		}
	}

	/**
	 * Stop handing out keys and ignore further adds; waiting keys are dropped. Workers blocked
	 * in {@link #get()} return empty.
	 */
	public void shutDown() {
		if (!this.shuttingDown) {
			this.shuttingDown = true;
			this.delayed.close();
			this.readyPermits.release(SHUTDOWN_PERMITS);
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
		synchronized (this.drainMonitor) {
			this.drainers++;
			try {
				while (inFlight() > 0) {
					long remaining = timeoutNanos - (System.nanoTime() - start);
					if (remaining <= 0) {
						return false;
					}
					TimeUnit.NANOSECONDS.timedWait(this.drainMonitor, remaining);
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
		return this.shuttingDown;
	}

	/**
	 * Return the number of keys ready to be handed out, as client-go's {@code Len()}.
	 * @return the depth, 0 once shut down
	 */
	public int depth() {
		return this.shuttingDown ? 0 : this.readyPermits.availablePermits();
	}

	/**
	 * Return the number of keys waiting out a delay.
	 * @return the waiting keys
	 */
	public int waiting() {
		return this.delayed.size();
	}

	/**
	 * Return how long a key still waits out its delay.
	 * @param item the key
	 * @return the remaining delay, or empty if the key does not wait
	 */
	public Optional<Duration> remainingDelay(T item) {
		long nanos = this.delayed.remainingNanos(item);
		return (nanos >= 0) ? Optional.of(Duration.ofNanos(nanos)) : Optional.empty();
	}

	/**
	 * Return the number of keys that workers hold.
	 * @return the keys in flight
	 */
	public int inFlight() {
		// counted on demand: a shared counter would be written twice a key by every worker
		int held = 0;
		for (Entry entry : this.entries.values()) {
			held += entry.isHeldNow() ? 1 : 0;
		}
		return held;
	}

	/**
	 * Return the total time that the keys workers hold now have been held.
	 * @return the unfinished work in nanoseconds
	 */
	public long unfinishedWorkNanos() {
		long now = this.ticker.read();
		long total = 0;
		for (Entry entry : this.entries.values()) {
			total += entry.heldFor(now);
		}
		return total;
	}

	/**
	 * Return how long the longest-held key has been held.
	 * @return nanoseconds, 0 when no key is held
	 */
	public long longestRunningProcessorNanos() {
		long now = this.ticker.read();
		long longest = 0;
		for (Entry entry : this.entries.values()) {
			longest = Math.max(longest, entry.heldFor(now));
		}
		return longest;
	}

	/**
	 * A key that a worker took: the key, the cause of the add it was taken for, and when.
	 *
	 * @param <T> the type of item
	 * @param item the key
	 * @param cause the cause of its latest add
	 * @param takenAt when the worker took it, as a reading of the queue's ticker
	 */
	public record Taken<T>(T item, AddCause cause, long takenAt) {

	}

	private static long saturatedNanos(Duration duration) {
		if (duration.getSeconds() >= Long.MAX_VALUE / TimeUnit.SECONDS.toNanos(1)) {
			return Long.MAX_VALUE;
		}
		return duration.toNanos();
	}

	/**
	 * The state of one pending or held key, guarded by itself.
	 */
	private static final class Entry {

		static final int PENDING = 0;

		static final int HELD = 1;

		// held, and added again meanwhile: ready again once done
		static final int HELD_DIRTY = 2;

		// left the map: an add must make a new entry
		static final int RETIRED = 3;

		int state = PENDING;

		// the cause of the add that made the key pending, and of the hold that follows it
		AddCause cause;

		// pending: since when; held: since when a worker works on it
		long time;

		AddCause nextCause;

		long nextAddedAt;

		Entry(AddCause cause, long time) {
			this.cause = cause;
			this.time = time;
		}

		synchronized boolean isPending() {
			return this.state == PENDING || this.state == HELD_DIRTY;
		}

		boolean isHeld() {
			return this.state == HELD || this.state == HELD_DIRTY;
		}

		synchronized long heldFor(long now) {
			return isHeld() ? now - this.time : 0;
		}

		synchronized boolean isHeldNow() {
			return isHeld();
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
