package dev.kubereconciler.internal.controller;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.internal.queue.ReconcileQueue;
import dev.kubereconciler.internal.queue.ReconcileQueueBuilder;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.queue.QueueStats;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.DelayScheduler;

/**
 * The work queue a controller runs now: a new queue replaces it each time the controller
 * restarts after a stop, and its gauges read whichever queue runs.
 */
final class CurrentQueue implements QueueStats<Request> {

	private final ControllerDefinition definition;

	private final DelayScheduler clock;

	private final QueueObserver<Request> observer;

	private final boolean priorityQueue;

	private volatile ReconcileQueue<Request> queue;

	CurrentQueue(ControllerDefinition definition, DelayScheduler clock, QueueObserver<Request> observer,
			boolean priorityQueue) {
		this.definition = definition;
		this.clock = clock;
		this.observer = observer;
		this.priorityQueue = priorityQueue;
		this.queue = newQueue();
	}

	private ReconcileQueue<Request> newQueue() {
		ReconcileQueueBuilder<Request> builder = ReconcileQueue.<Request>builder()
			.name(this.definition.name())
			.rateLimiter(this.definition.rateLimiter())
			.scheduler(this.clock)
			.observer(this.observer)
			.priority(this.priorityQueue);
		// clusters (issue 40): a cluster that floods the queue takes its turn with the
		// others
		if (this.definition.clusters().includesFleet()) {
			builder.fairBy(Request::cluster);
		}
		return builder.build();
	}

	/**
	 * Return the queue the controller runs now.
	 * @return the queue
	 */
	ReconcileQueue<Request> get() {
		return this.queue;
	}

	/**
	 * Return the queue for a start: the current one, or a new one if it was shut down.
	 * @return the queue to start on
	 */
	ReconcileQueue<Request> renew() {
		if (this.queue.isShuttingDown()) {
			this.queue = newQueue();
		}
		return this.queue;
	}

	/**
	 * Return a new queue for a start, shutting the current one down, whatever it holds.
	 * @return the queue to start on
	 */
	ReconcileQueue<Request> replace() {
		ReconcileQueue<Request> old = this.queue;
		this.queue = newQueue();
		old.shutDown();
		return this.queue;
	}

	@Override
	public int depth() {
		return this.queue.depth();
	}

	@Override
	public int waiting() {
		return this.queue.waiting();
	}

	@Override
	public int numRequeues(Request item) {
		return this.queue.numRequeues(item);
	}

	@Override
	public boolean isPriorityQueue() {
		return this.queue.isPriorityQueue();
	}

	@Override
	public int inFlight() {
		return this.queue.gauges().inFlight();
	}

	@Override
	public long unfinishedWorkNanos() {
		return this.queue.gauges().unfinishedWorkNanos();
	}

	@Override
	public long longestRunningProcessorNanos() {
		return this.queue.gauges().longestRunningProcessorNanos();
	}

	@Override
	public Optional<Duration> remainingDelay(Request item) {
		return this.queue.gauges().remainingDelay(item);
	}

	@Override
	public Map<Integer, Integer> depthByPriority() {
		return this.queue.gauges().depthByPriority();
	}

}
