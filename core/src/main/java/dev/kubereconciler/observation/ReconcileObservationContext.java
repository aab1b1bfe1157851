package dev.kubereconciler.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * What an {@link ReconcileObservationConvention} reads of one reconcile: the controller,
 * the request, what queued it and, once it ended, its outcome.
 */
public class ReconcileObservationContext extends Observation.Context {

	private final String controller;

	private final Request request;

	private final Trigger trigger;

	private @Nullable ReconcileOutcome outcome;

	/**
	 * Create the context of one reconcile.
	 * @param controller the controller's name
	 * @param request the key reconciled
	 * @param trigger the cause of the key's latest add to the work queue
	 */
	public ReconcileObservationContext(String controller, Request request, Trigger trigger) {
		this.controller = controller;
		this.request = request;
		this.trigger = trigger;
	}

	/**
	 * Return the controller's name.
	 * @return the name
	 */
	public String getController() {
		return this.controller;
	}

	/**
	 * Return the key reconciled.
	 * @return the request
	 */
	public Request getRequest() {
		return this.request;
	}

	/**
	 * Return what queued the key: {@link Trigger#EVENT} (a watch event or a resync),
	 * {@link Trigger#RETRY} or {@link Trigger#REQUEUE_AFTER}.
	 * @return the trigger
	 */
	public Trigger getTrigger() {
		return this.trigger;
	}

	/**
	 * Return how the reconcile ended, or {@code null} while it runs.
	 * @return the outcome
	 */
	public @Nullable ReconcileOutcome getOutcome() {
		return this.outcome;
	}

	/**
	 * Set how the reconcile ended.
	 * @param outcome the outcome
	 */
	public void setOutcome(ReconcileOutcome outcome) {
		this.outcome = outcome;
	}

}
