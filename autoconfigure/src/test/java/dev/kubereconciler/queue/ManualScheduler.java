package dev.kubereconciler.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.kubereconciler.ratelimit.ManualTicker;
import dev.kubereconciler.ratelimit.Ticker;

/**
 * A {@link DelayScheduler} on a {@link ManualTicker}: scheduled actions run on the test's
 * thread, in deadline order, when the test advances time past them.
 */
public final class ManualScheduler implements DelayScheduler {

	private final ManualTicker ticker;

	private final List<Task> tasks = new ArrayList<>();

	private long sequence;

	public ManualScheduler() {
		this(new ManualTicker());
	}

	public ManualScheduler(ManualTicker ticker) {
		this.ticker = ticker;
	}

	@Override
	public Ticker ticker() {
		return this.ticker;
	}

	/**
	 * Return the manual ticker, for tests that move time without running actions.
	 * @return the ticker
	 */
	public ManualTicker manualTicker() {
		return this.ticker;
	}

	@Override
	public synchronized Cancellable schedule(long deadline, Runnable action) {
		Task task = new Task(deadline, this.sequence++, action);
		this.tasks.add(task);
		return () -> cancel(task);
	}

	private synchronized void cancel(Task task) {
		this.tasks.remove(task);
	}

	/**
	 * Return how many actions are scheduled and not cancelled.
	 * @return the pending actions
	 */
	public synchronized int pending() {
		return this.tasks.size();
	}

	/**
	 * Move time forward, then run every action that is due.
	 * @param duration how far to move
	 */
	public void advance(Duration duration) {
		this.ticker.advance(duration);
		runDue();
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

	private synchronized Task takeDue() {
		long now = this.ticker.read();
		Task due = this.tasks.stream()
			.filter((task) -> task.deadline - now <= 0)
			.min(Comparator.comparingLong(Task::deadline).thenComparingLong(Task::sequence))
			.orElse(null);
		if (due != null) {
			this.tasks.remove(due);
		}
		return due;
	}

	private record Task(long deadline, long sequence, Runnable action) {
	}

}
