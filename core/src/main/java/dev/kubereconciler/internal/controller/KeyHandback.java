package dev.kubereconciler.internal.controller;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.internal.queue.WorkerQueue.Taken;
import dev.kubereconciler.internal.queue.WorkerQueue;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.sharding.KeyOwnership;

/**
 * Gives a key that a {@link ReconcileWorker} took back to its queue without a completed
 * reconcile, and marks it done.
 */
final class KeyHandback {

	private static final Logger logger = LoggerFactory.getLogger(WorkQueueController.class);

	private final WorkerContext context;

	private final WorkerQueue<Request> queue;

	KeyHandback(WorkerContext context, WorkerQueue<Request> queue) {
		this.context = context;
		this.queue = queue;
	}

	/**
	 * Drop a key that another replica reconciles, without a reconcile (it is enqueued
	 * again if this replica acquires its partition), or park it while this replica's
	 * Lease is stale: it comes back with its cause and priority, not as a retry, when the
	 * Lease is renewed, so a long API server outage neither spins the workers nor counts
	 * retries.
	 * @param ownership which keys this replica may dispatch
	 * @param taken the key
	 */
	void drop(KeyOwnership ownership, Taken<Request> taken) {
		Request key = taken.item();
		Trigger cause = taken.cause();
		int priority = taken.priority();
		if (!ownership.park(key, this.queue.queue(), () -> this.queue.add(key, cause, priority))) {
			this.queue.queue().forget(key);
		}
		this.queue.done(key);
	}

	/**
	 * Retry a key whose worker failed outside the reconcile, through the rate limiter, or
	 * at once if the limiter fails too.
	 * @param taken the key
	 */
	void requeueAfterFailure(Taken<Request> taken) {
		Request request = taken.item();
		try {
			this.queue.queue().addRateLimited(request, taken.priority());
		}
		catch (RuntimeException limiterFailure) {
			this.queue.add(request, Trigger.RETRY, taken.priority());
		}
		this.queue.done(request);
	}

	/**
	 * Retry the key of a reconcile the watchdog abandoned, as a timed-out reconcile.
	 * @param abandoned the key
	 * @param priority the priority it was taken with
	 * @param ran how long the reconcile ran, in nanoseconds
	 * @param threadName the name of the abandoned worker thread
	 */
	void retryAbandoned(Request abandoned, int priority, long ran, String threadName) {
		// A hostile reconciler keeps this thread; its key must not stay wedged behind
		// it, so it is retried now at the cost of possibly overlapping with the
		// abandoned call.
		logger.error("Reconcile of {} by controller '{}' ignored the interrupt after its timeout; abandoning "
				+ "thread {} and starting a new worker", abandoned, this.context.controller(), threadName);
		try {
			this.context.results()
				.handle(this.queue.queue(), abandoned, priority, ReconcileOutcome.TIMEOUT, true, null, null, ran);
		}
		finally {
			this.queue.done(abandoned);
		}
	}

}
