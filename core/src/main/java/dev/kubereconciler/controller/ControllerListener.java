package dev.kubereconciler.controller;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Receives what controllers do, for metrics and diagnostics. Every method has an empty
 * default; implementations must be thread-safe, fast, and must not throw.
 */
public interface ControllerListener {

	/** A listener that ignores everything. */
	ControllerListener NONE = new ControllerListener() {
	};

	/**
	 * A worker started to reconcile a key.
	 * @param controller the controller name
	 * @param request the key
	 */
	default void reconcileStarted(String controller, Request request) {
	}

	/**
	 * A reconcile ended.
	 * @param controller the controller name
	 * @param request the key
	 * @param outcome how it ended
	 * @param nanos how long the reconcile function ran
	 * @param error the error, or {@code null}
	 */
	default void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
			@Nullable Throwable error) {
	}

	/**
	 * A limiter decided how long a key waits. Called once for every rate-limited requeue
	 * (after an error or {@code Result.requeue()}), with source
	 * {@link DelaySource#BACKOFF} or {@link DelaySource#BUCKET} and cause
	 * {@link Trigger#RETRY}, even when the delay is zero; and once for every wait longer
	 * than zero at the manager gate, with source {@link DelaySource#MANAGER} and the
	 * cause of the key's latest add.
	 * @param controller the controller name
	 * @param request the key
	 * @param cause why the key was added
	 * @param source the limiter the delay is attributed to
	 * @param delay the delay
	 */
	default void limiterDelayed(String controller, Request request, Trigger cause, DelaySource source, Duration delay) {
	}

	/**
	 * An event filter dropped an update of a primary object.
	 * @param controller the controller name
	 * @param filter the name of the filter that dropped it
	 */
	default void updateFiltered(String controller, String filter) {
	}

	/**
	 * A controller made sure a dependent object is as it wants it.
	 * @param controller the controller name
	 * @param dependent the dependent's name
	 * @param changed whether the server's object changed: created, or updated by an
	 * apply; {@code false} when it was already as wanted and no write was sent, or the
	 * apply changed nothing
	 * @param drift whether the apply put back a field that someone else had changed
	 */
	default void dependentApplied(String controller, String dependent, boolean changed, boolean drift) {
	}

	/**
	 * A controller deleted an object a dependent had applied and no longer wants.
	 * @param controller the controller name
	 * @param dependent the name the object was applied under
	 */
	default void dependentPruned(String controller, String dependent) {
	}

	/**
	 * A dependent that a reconcile had found not ready was found ready.
	 * @param controller the controller name
	 * @param dependent the dependent's name
	 * @param waited how long it was not ready, from the first reconcile that found it so
	 */
	default void dependentReady(String controller, String dependent, Duration waited) {
	}

	/**
	 * Return an observer for the work queue of the named controller.
	 * @param controller the controller name
	 * @return the observer, or {@code null} for none
	 */
	default @Nullable QueueObserver<Request> queueObserver(String controller) {
		return null;
	}

	/**
	 * A controller changed state.
	 * @param controller the controller name
	 * @param state the new state
	 */
	default void stateChanged(String controller, ControllerState state) {
	}

	/**
	 * A reconcile read a read-through type from the API server, as the cache options
	 * declare, instead of from an informer's cache.
	 * @param controller the controller name
	 * @param type the type's display name, such as {@code v1/Secret}
	 * @param verb {@code get} or {@code list}
	 */
	default void cacheReadThrough(String controller, String type, String verb) {
	}

	/**
	 * A source, or {@link Controller#reconcileAll()}, added a key to a controller's
	 * queue.
	 * @param controller the controller name
	 * @param source the source's name, or {@code reconcile-all}
	 */
	default void sourceKeyAdded(String controller, String source) {
	}

}
