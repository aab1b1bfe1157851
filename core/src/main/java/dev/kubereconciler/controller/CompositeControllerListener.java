package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Fans every callback out to several {@link ControllerListener}s.
 */
public final class CompositeControllerListener implements ControllerListener {

	private final List<ControllerListener> listeners;

	private CompositeControllerListener(List<ControllerListener> listeners) {
		this.listeners = listeners;
	}

	/**
	 * Return one listener that tells each of the given ones, in their order.
	 * @param listeners the listeners
	 * @return {@link ControllerListener#NONE} for none, the listener itself for one, else
	 * a composite
	 */
	public static ControllerListener of(List<ControllerListener> listeners) {
		if (listeners.isEmpty()) {
			return ControllerListener.NONE;
		}
		return (listeners.size() == 1) ? listeners.get(0) : new CompositeControllerListener(List.copyOf(listeners));
	}

	@Override
	public void reconcileStarted(String controller, Request request) {
		this.listeners.forEach((listener) -> listener.reconcileStarted(controller, request));
	}

	@Override
	public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
			@Nullable Throwable error) {
		this.listeners.forEach((listener) -> listener.reconcileFinished(controller, request, outcome, nanos, error));
	}

	@Override
	public void limiterDelayed(String controller, Request request, Trigger cause, DelaySource source, Duration delay) {
		this.listeners.forEach((listener) -> listener.limiterDelayed(controller, request, cause, source, delay));
	}

	@Override
	public void updateFiltered(String controller, String filter) {
		this.listeners.forEach((listener) -> listener.updateFiltered(controller, filter));
	}

	@Override
	public void cacheReadThrough(String controller, String type, String verb) {
		this.listeners.forEach((listener) -> listener.cacheReadThrough(controller, type, verb));
	}

	@Override
	public void dependentApplied(String controller, String dependent, boolean changed, boolean drift) {
		this.listeners.forEach((listener) -> listener.dependentApplied(controller, dependent, changed, drift));
	}

	@Override
	public void dependentPruned(String controller, String dependent) {
		this.listeners.forEach((listener) -> listener.dependentPruned(controller, dependent));
	}

	@Override
	public void dependentReady(String controller, String dependent, Duration waited) {
		this.listeners.forEach((listener) -> listener.dependentReady(controller, dependent, waited));
	}

	@Override
	public @Nullable QueueObserver<Request> queueObserver(String controller) {
		List<QueueObserver<Request>> observers = this.listeners.stream()
			.map((listener) -> listener.queueObserver(controller))
			.filter(Objects::nonNull)
			.toList();
		if (observers.isEmpty()) {
			return null;
		}
		return (observers.size() == 1) ? observers.get(0) : new QueueObserver<>() {

			@Override
			public void added(Request item, Trigger cause, int priority) {
				observers.forEach((observer) -> observer.added(item, cause, priority));
			}

			@Override
			public void retried(Request item) {
				observers.forEach((observer) -> observer.retried(item));
			}

			@Override
			public void dequeued(Request item, long queuedNanos) {
				observers.forEach((observer) -> observer.dequeued(item, queuedNanos));
			}

			@Override
			public void finished(Request item, long workNanos) {
				observers.forEach((observer) -> observer.finished(item, workNanos));
			}

		};
	}

	@Override
	public void stateChanged(String controller, ControllerState state) {
		this.listeners.forEach((listener) -> listener.stateChanged(controller, state));
	}

	@Override
	public void sourceKeyAdded(String controller, String source) {
		this.listeners.forEach((listener) -> listener.sourceKeyAdded(controller, source));
	}

}
