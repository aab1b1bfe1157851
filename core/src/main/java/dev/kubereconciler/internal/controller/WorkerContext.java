package dev.kubereconciler.internal.controller;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.internal.queue.ReconcileQueue;
import dev.kubereconciler.observation.ReconcileObservations;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.KeyOwnership;
import dev.kubereconciler.time.Sleeper;

/**
 * What a {@link ReconcileWorker} needs from its controller, handed over once when the
 * worker starts, so that the worker does not reach back into the
 * {@link WorkQueueController}.
 *
 * @param controller the controller's name
 * @param reconciler the reconcile function
 * @param queue the queue the worker takes keys from
 * @param results acts on how a reconcile ended
 * @param gate the manager gate, or {@code null} for none
 * @param listener reports what the worker does
 * @param clock reads time and waits out gate delays
 * @param pause holds the worker while the controller is paused
 * @param ownership whether this replica reconciles a key, read at each dispatch
 * @param observations observes each reconcile, or {@code null} for none
 */
record WorkerContext(String controller, ReconcileFunction reconciler, ReconcileQueue<Request> queue,
		ResultHandler results, ManagerGate gate, ControllerListener listener, Sleeper clock, PauseSwitch pause,
		Supplier<KeyOwnership> ownership, @Nullable ReconcileObservations observations) {

	WorkerContext withQueue(ReconcileQueue<Request> queue) {
		return new WorkerContext(this.controller, this.reconciler, queue, this.results, this.gate, this.listener,
				this.clock, this.pause, this.ownership, this.observations);
	}

}
