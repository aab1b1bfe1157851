package dev.kubereconciler.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one test clock: a {@link DelayScheduler} whose time only moves when a test advances
 * it. Scheduled actions run on the test's thread, in deadline order, when time passes
 * their deadline; a sleeping thread wakes the same way, never on its own. One instance
 * drives the limiters, the queue delays, the manager gate and the watchdog of a test.
 */
public final class ManualClock implements DelayScheduler {

	private final Object monitor = new Object();

	private final List<Task> tasks = new ArrayList<>();

	private final AtomicInteger sleeping = new AtomicInteger();

	private final boolean advanceOnSleep;

	private long nanos;

	private long sequence;

	public ManualClock() {
		this(0);
	}

	public ManualClock(long startNanos) {
		this(startNanos, false);
	}

	private ManualClock(long startNanos, boolean advanceOnSleep) {
		this.nanos = startNanos;
		this.advanceOnSleep = advanceOnSleep;
	}

	/**
	 * Return a clock on which a sleeping thread moves time forward by its own wait and
	 * goes on at once, as the fake clock of {@code k8s.io/utils/clock} does, for tests
	 * that only look at how long was waited.
	 * @return the clock
	 */
	public static ManualClock advancingOnSleep() {
		return new ManualClock(0, true);
	}

	@Override
	public long read() {
		synchronized (this.monitor) {
			return this.nanos;
		}
	}

	@Override
	public void sleep(long nanos) throws InterruptedException {
		if (nanos <= 0) {
			return;
		}
		if (this.advanceOnSleep) {
			advance(Duration.ofNanos(nanos));
			return;
		}
		CountDownLatch wake = new CountDownLatch(1);
		Cancellable wakeUp = schedule(read() + nanos, wake::countDown);
		this.sleeping.incrementAndGet();
		try {
			wake.await();
		}
		catch (InterruptedException ex) {
			wakeUp.cancel();
			throw ex;
		}
		finally {
			this.sleeping.decrementAndGet();
		}
	}

	@Override
	public Cancellable schedule(long deadline, Runnable action) {
		synchronized (this.monitor) {
			Task task = new Task(deadline, this.sequence++, action);
			this.tasks.add(task);
			return () -> cancel(task);
		}
	}

	private void cancel(Task task) {
		synchronized (this.monitor) {
			this.tasks.remove(task);
		}
	}

	/**
	 * Return how many threads sleep on this clock now.
	 * @return the sleeping threads
	 */
	public int sleeping() {
		return this.sleeping.get();
	}

	/**
	 * Return how many actions are scheduled and not cancelled, sleepers' wake-ups
	 * included.
	 * @return the pending actions
	 */
	public int pending() {
		synchronized (this.monitor) {
			return this.tasks.size();
		}
	}

	/**
	 * Move time forward, then run every action that is due and wake every sleeper whose
	 * deadline passed.
	 * @param duration how far to move, not negative
	 */
	public void advance(Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("A clock cannot go back in time: " + duration);
		}
		synchronized (this.monitor) {
			this.nanos += duration.toNanos();
		}
		runDue();
	}

	/**
	 * Move time forward without running anything that became due, for tests that look at
	 * the state between the two.
	 * @param duration how far to move, not negative
	 */
	public void advanceWithoutRunning(Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("A clock cannot go back in time: " + duration);
		}
		synchronized (this.monitor) {
			this.nanos += duration.toNanos();
		}
	}

	/**
	 * Run every action that is due now, including those that due actions schedule.
	 */
	public void runDue() {
		Task next;
		while ((next = takeDue()) != null) {
			next.action.run();
		}
	}

	private Task takeDue() {
		synchronized (this.monitor) {
			long now = this.nanos;
			Task due = this.tasks.stream()
				.filter((task) -> task.deadline - now <= 0)
				.min(Comparator.comparingLong(Task::deadline).thenComparingLong(Task::sequence))
				.orElse(null);
			if (due != null) {
				this.tasks.remove(due);
			}
			return due;
		}
	}

	private record Task(long deadline, long sequence, Runnable action) {
	}

	/**
	 * Return a wall clock that moves with this clock, from the given instant on, for code
	 * that takes a {@link Clock}.
	 * @param start what the wall clock reads now
	 * @return the wall clock
	 */
	public Clock wallClock(Instant start) {
		long origin = read();
		return new Clock() {

			@Override
			public ZoneId getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(ZoneId zone) {
				return this;
			}

			@Override
			public Instant instant() {
				return start.plusNanos(read() - origin);
			}

		};
	}

}
