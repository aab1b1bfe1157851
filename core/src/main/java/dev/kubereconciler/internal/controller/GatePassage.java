package dev.kubereconciler.internal.controller;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.controller.ManagerGate.Pass;
import dev.kubereconciler.internal.queue.WorkerQueue;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * One worker's passage through the {@link ManagerGate}: it takes a pass and waits out its
 * delay on the worker thread, so that the wait is limiter delay and not queue time. Every
 * pass it takes is either admitted or given back, whatever happens during the wait.
 */
final class GatePassage {

	private final WorkerContext context;

	private final WorkerQueue<Request> queue;

	GatePassage(WorkerContext context) {
		this.context = context;
		this.queue = WorkerQueue.of(context.queue());
	}

	/**
	 * Pass the gate for a key the worker holds.
	 * @param request the key
	 * @param cause why the key was added
	 * @param priority the priority the key was taken at, which a hand-back keeps
	 * @param stopped whether the worker was told to stop
	 * @return how the key passed; when {@link Passage#HANDED_BACK}, the caller still
	 * marks it done
	 * @throws InterruptedException if the wait was interrupted; the key was added back
	 */
	Passage pass(Request request, Trigger cause, int priority, BooleanSupplier stopped) throws InterruptedException {
		ManagerGate manager = this.context.gate();
		if (manager == null) {
			return Passage.NOW;
		}
		ManagerGate gate = manager.forCluster(request.cluster());
		if (gate.isOpen()) {
			gate.admit();
			return Passage.NOW;
		}
		if (!gate.appliesTo(cause)) {
			return Passage.NOW;
		}
		Pass pass = gate.reserve();
		long delay = pass.delayNanos();
		if (!pass.isGranted()) {
			// nothing was taken from the bucket: the key waits in the queue instead
			this.queue.addAfter(request, Duration.ofNanos(delay), cause, priority);
			report(request, cause, delay);
			return Passage.HANDED_BACK;
		}
		boolean admitted = false;
		try {
			if (delay <= 0) {
				admitted = true;
				return Passage.NOW;
			}
			report(request, cause, delay);
			try {
				this.context.clock().sleep(delay);
			}
			catch (InterruptedException ex) {
				this.queue.add(request, cause, priority);
				throw ex;
			}
			if (stopped.getAsBoolean() || this.queue.isShuttingDown()) {
				// the controller began to stop during the wait: reconciling now would
				// start work after stop() and behind the drain
				return Passage.HANDED_BACK;
			}
			// the gate's wait is limiter delay, not work on the key
			this.queue.startWork(request);
			admitted = true;
			return Passage.AFTER_WAIT;
		}
		finally {
			if (admitted) {
				gate.admit(pass);
			}
			else {
				gate.giveBack(pass);
			}
		}
	}

	private void report(Request request, Trigger cause, long delay) {
		this.context.listener()
			.limiterDelayed(this.context.controller(), request, cause, DelaySource.MANAGER, Duration.ofNanos(delay));
	}

	/**
	 * How a key passed the gate.
	 */
	enum Passage {

		/** Without waiting. */
		NOW,

		/** After waiting on the worker thread; the work on the key starts now. */
		AFTER_WAIT,

		/** Not at all: the key went back to the queue, or the queue shuts down. */
		HANDED_BACK

	}

}
