package dev.kubereconciler.internal.cache;

import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.reconcile.Request;

/**
 * Where the informer event handlers put a controller's keys: a narrow view of its queue,
 * as controller-runtime's event handlers write to a queue and never to the controller
 * ({@code pkg/handler/eventhandler.go}).
 */
@FunctionalInterface
public interface KeySink {

	/**
	 * Add a key from a watch event, without delay.
	 * @param request the key
	 * @param priority the priority, such as {@link Priorities#LOW} for an event that
	 * changed nothing
	 */
	void add(Request request, int priority);

	/**
	 * Add a key from a watch event, without delay, at normal priority.
	 * @param request the key
	 */
	default void add(Request request) {
		add(request, Priorities.NORMAL);
	}

}
