package dev.kubereconciler.internal.queue;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.internal.queue.WorkerQueue.Taken;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.Ticker;

/**
 * The pending and held keys of a {@link ReconcileQueue}, with client-go's dirty and
 * processing sets folded into one state per key: a key is deduplicated while pending,
 * never held twice, and handed out again after {@code done} when it was added while held.
 *
 * <p>
 * Each key's state changes under that key's own entry, and a semaphore counts ready keys
 * for the workers that wait. Ready keys travel through a lock-free FIFO queue, or, in
 * priority mode, through {@link PriorityReadyKeys}. A key's priority only rises while it
 * is pending: adds take the highest of the priorities they carry.
 *
 * <p>
 * Lock order: a key's entry, then the ready keys.
 *
 * @param <T> the type of item
 */
final class KeyTable<T> {

	// enough permits that every worker waiting now or later passes at once after
	// a shutdown
	private static final int SHUTDOWN_PERMITS = Integer.MAX_VALUE / 2;

	private final Ticker ticker;

	private final QueueObserver<T> observer;

	// without an observer, done() has no use for the clock
	private final boolean observed;

	// every key that is pending or held; a key's entry guards its own state
	private final ConcurrentHashMap<T, KeyEntry> entries = new ConcurrentHashMap<>();

	// pending keys that no worker holds, in the order workers take them; one permit each
	private final ReadyKeys ready;

	private final Semaphore readyPermits = new Semaphore(0);

	private final DrainWaiters drainWaiters;

	private volatile boolean shuttingDown;

	KeyTable(Ticker ticker, QueueObserver<T> observer, ReadyKeys ready) {
		this.ticker = ticker;
		this.drainWaiters = new DrainWaiters(ticker);
		this.ready = ready;
		this.observer = observer;
		this.observed = observer != QueueObserver.none();
	}

	QueueObserver<T> observer() {
		return this.observer;
	}

	boolean isObserved() {
		return this.observed;
	}

	boolean isShuttingDown() {
		return this.shuttingDown;
	}

	void add(T item, Trigger cause, int priority, long now) {
		if (this.shuttingDown) {
			return;
		}
		while (true) {
			KeyEntry entry = this.entries.get(item);
			if (entry == null) {
				KeyEntry fresh = new KeyEntry(item, cause, priority, now);
				// locked until it is ready, so that a concurrent add raises it where
				// it stands
				synchronized (fresh) {
					if (this.entries.putIfAbsent(item, fresh) == null) {
						this.observer.added(item, cause, priority);
						makeReady(fresh, priority);
						return;
					}
				}
				continue;
			}
			synchronized (entry) {
				if (entry.state == KeyEntry.RETIRED) {
					// done() is removing it; add anew
					continue;
				}
				if (entry.state == KeyEntry.HELD) {
					entry.state = KeyEntry.HELD_DIRTY;
					entry.nextCause = cause;
					entry.nextAddedAt = now;
					entry.nextPriority = priority;
					this.observer.added(item, cause, priority);
				}
				else if (entry.state == KeyEntry.HELD_DIRTY) {
					entry.nextCause = cause;
					entry.nextPriority = Math.max(entry.nextPriority, priority);
				}
				else {
					entry.cause = cause;
					raise(entry, priority);
				}
				return;
			}
		}
	}

	private void makeReady(KeyEntry entry, int priority) {
		this.ready.offer(entry, priority);
		this.readyPermits.release();
	}

	private void raise(KeyEntry entry, int priority) {
		if (priority > entry.priority) {
			entry.priority = priority;
			this.ready.raise(entry, priority);
		}
	}

	/**
	 * Raise the priority of a pending key, for a delayed add of a key that is pending
	 * anyway.
	 * @param item the key
	 * @param priority the priority of the delayed add
	 * @return whether the key is pending
	 */
	boolean raiseIfPending(T item, int priority) {
		KeyEntry entry = this.entries.get(item);
		if (entry == null) {
			return false;
		}
		synchronized (entry) {
			if (entry.state == KeyEntry.PENDING) {
				raise(entry, priority);
				return true;
			}
			if (entry.state == KeyEntry.HELD_DIRTY) {
				entry.nextPriority = Math.max(entry.nextPriority, priority);
				return true;
			}
			return false;
		}
	}

	@Nullable Taken<T> next(@Nullable Taken<T> done, long now) throws InterruptedException {
		if (done != null) {
			done(done.item(), done.entry, now);
		}
		return take(now);
	}

	@Nullable Taken<T> take(long now) throws InterruptedException {
		long takenAt = now;
		if (!this.readyPermits.tryAcquire()) {
			this.readyPermits.acquire();
			takenAt = this.ticker.read();
		}
		if (this.shuttingDown) {
			return null;
		}
		// the ready keys hand over the entry itself: no lookup in the table per key
		KeyEntry entry = Objects.requireNonNull(this.ready.poll(), "a ready permit without a ready key");
		@SuppressWarnings("unchecked")
		T item = (T) entry.item;
		long queued;
		Trigger cause;
		int priority;
		synchronized (entry) {
			queued = Math.max(0, takenAt - entry.time);
			entry.state = KeyEntry.HELD;
			entry.time = takenAt;
			cause = entry.cause;
			priority = entry.priority;
		}
		this.observer.dequeued(item, queued);
		return new Taken<>(item, cause, priority, takenAt, entry);
	}

	void startWork(T item) {
		KeyEntry entry = this.entries.get(item);
		if (entry != null) {
			long now = this.ticker.read();
			synchronized (entry) {
				if (entry.isHeld()) {
					entry.time = now;
				}
			}
		}
	}

	void done(T item, long now) {
		KeyEntry entry = this.entries.get(item);
		if (entry != null) {
			done(item, entry, now);
		}
	}

	// the entry a worker took: if it is no longer held, its hold already ended
	private void done(T item, KeyEntry entry, long now) {
		long worked;
		synchronized (entry) {
			if (!entry.isHeld()) {
				return;
			}
			worked = now - entry.time;
			if (entry.state == KeyEntry.HELD_DIRTY) {
				entry.state = KeyEntry.PENDING;
				entry.cause = Objects.requireNonNull(entry.nextCause);
				entry.time = entry.nextAddedAt;
				entry.priority = entry.nextPriority;
				makeReady(entry, entry.priority);
			}
			else {
				entry.state = KeyEntry.RETIRED;
				this.entries.remove(item, entry);
			}
		}
		if (this.observed) {
			this.observer.finished(item, worked);
		}
		this.drainWaiters.wakeIfWaiting();
	}

	void shutDown() {
		this.shuttingDown = true;
		this.readyPermits.release(SHUTDOWN_PERMITS);
	}

	/**
	 * Wait until no key is held, or until the ticker reaches the deadline.
	 * @param deadline the deadline, as a reading of the ticker
	 * @return whether no key is held
	 */
	boolean awaitDrained(long deadline) throws InterruptedException {
		return this.drainWaiters.await(deadline, this::inFlight);
	}

	void wakeDrainers() {
		this.drainWaiters.wake();
	}

	int depth() {
		return this.shuttingDown ? 0 : this.readyPermits.availablePermits();
	}

	Map<Integer, Integer> depthByPriority() {
		return this.shuttingDown ? Map.of() : this.ready.depthByPriority(depth());
	}

	int inFlight() {
		// counted on demand: a shared counter would be written twice a key by
		// every worker
		int held = 0;
		for (KeyEntry entry : this.entries.values()) {
			held += entry.isHeldNow() ? 1 : 0;
		}
		return held;
	}

	long unfinishedWorkNanos() {
		long now = this.ticker.read();
		long total = 0;
		for (KeyEntry entry : this.entries.values()) {
			total += entry.heldFor(now);
		}
		return total;
	}

	long longestRunningProcessorNanos() {
		long now = this.ticker.read();
		long longest = 0;
		for (KeyEntry entry : this.entries.values()) {
			longest = Math.max(longest, entry.heldFor(now));
		}
		return longest;
	}

}
