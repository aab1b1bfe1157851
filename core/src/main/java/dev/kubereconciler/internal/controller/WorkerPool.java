package dev.kubereconciler.internal.controller;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.time.Ticker;

/**
 * The worker threads of one {@link WorkQueueController}: starts them, checks their
 * reconciles against the timeout, and joins them on stop. The controller decides when;
 * the pool does the work.
 */
final class WorkerPool {

	private static final Logger logger = LoggerFactory.getLogger(WorkQueueController.class);

	private final String name;

	private final ThreadFactory threadFactory;

	private final Ticker ticker;

	private final Duration abandonGrace;

	private final List<ReconcileWorker> workers = new CopyOnWriteArrayList<>();

	private final AtomicInteger ids = new AtomicInteger();

	WorkerPool(String name, ThreadFactory threadFactory, Ticker ticker, Duration abandonGrace) {
		this.name = name;
		this.threadFactory = threadFactory;
		this.ticker = ticker;
		this.abandonGrace = abandonGrace;
	}

	/**
	 * Start one worker.
	 * @param context what the worker needs, its queue included
	 */
	void start(WorkerContext context) {
		ReconcileWorker worker = new ReconcileWorker(context);
		this.workers.add(worker);
		Thread thread = this.threadFactory.newThread(worker);
		thread.setName("reconcile-" + this.name + "-" + this.ids.incrementAndGet());
		worker.start(thread);
	}

	/**
	 * Remove every worker from the pool, for the caller to {@link #stop stop} once the
	 * queue drained.
	 * @return the removed workers
	 */
	List<ReconcileWorker> detachAll() {
		List<ReconcileWorker> detached = List.copyOf(this.workers);
		this.workers.removeAll(detached);
		return detached;
	}

	/**
	 * Interrupt the given workers and wait for them to exit, for up to the abandon grace.
	 * @param workers the workers
	 */
	void stop(List<ReconcileWorker> workers) {
		workers.forEach(ReconcileWorker::stop);
		// interrupted workers exit at once unless a reconciler ignores interrupts; do not
		// let such a reconciler hold up the shutdown for longer than the abandon grace
		long deadline = this.ticker.read() + this.abandonGrace.toNanos();
		for (ReconcileWorker worker : workers) {
			long remaining = deadline - this.ticker.read();
			try {
				if (remaining > 0) {
					worker.thread().join(Math.max(1, remaining / 1_000_000));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			if (worker.thread().isAlive()) {
				logger.error("Worker thread {} of controller '{}' ignored its interrupt; leaving it behind",
						worker.thread().getName(), this.name);
			}
		}
	}

	/**
	 * Interrupt reconciles that ran past the timeout, and abandon those that ignored the
	 * interrupt for longer than the grace period, removing their workers from the pool.
	 * @param timeout the reconcile timeout, positive
	 * @return how many workers were abandoned and need replacing
	 */
	int checkTimeouts(Duration timeout) {
		long now = this.ticker.read();
		int abandoned = 0;
		for (ReconcileWorker worker : this.workers) {
			if (worker.checkTimeout(now, timeout.toNanos(), this.abandonGrace.toNanos())) {
				this.workers.remove(worker);
				abandoned++;
			}
		}
		return abandoned;
	}

	/**
	 * Return how many workers run a reconcile now.
	 * @return the active workers
	 */
	int active() {
		// counted on demand: a shared counter would be written twice a key by
		// every worker
		int active = 0;
		for (ReconcileWorker worker : this.workers) {
			active += worker.isReconciling() ? 1 : 0;
		}
		return active;
	}

}
