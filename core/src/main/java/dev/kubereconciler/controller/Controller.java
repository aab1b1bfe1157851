package dev.kubereconciler.controller;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.queue.QueueStats;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * One running controller, as an application sees it: what it watches, how its queue and
 * workers stand, and the few operations that are safe while it runs. A controller manager
 * builds and runs every controller; its lifecycle is the manager's.
 *
 * <p>
 * A key is never reconciled by two workers at once, and a reconciler that throws, returns
 * {@code null} or runs past its timeout never kills a worker and never wedges its key.
 */
public interface Controller {

	/**
	 * Return the controller's name, unique in its manager.
	 * @return the name
	 */
	String name();

	/**
	 * Return the definition the controller runs.
	 * @return the definition
	 */
	ControllerDefinition definition();

	/**
	 * Return the API coordinates of the watched type.
	 * @return the resource type
	 */
	ResourceType resourceType();

	/**
	 * Return the limiter of failures and {@code Result.requeue()}: the definition's, or
	 * its scoped copy when several controllers share one instance.
	 * @return the rate limiter
	 */
	RateLimiter<Request> rateLimiter();

	/**
	 * Return the lifecycle state.
	 * @return the state
	 */
	ControllerState state();

	/**
	 * Return the number of workers that run now.
	 * @return the active workers
	 */
	int activeWorkers();

	/**
	 * Return what the work queue holds now. The view follows the queue across restarts: a
	 * controller that stops and starts again, for example after leadership was lost and
	 * regained, starts on a fresh queue.
	 * @return the queue's gauges
	 */
	QueueStats<Request> queue();

	/**
	 * Add a key without delay, as a watch event does.
	 * @param request the key
	 */
	void enqueue(Request request);

	/**
	 * Forget a key's failures, so that its next retry starts its backoff anew.
	 * @param request the key
	 */
	void forget(Request request);

	/**
	 * Pause the workers: in-flight reconciles finish, no new ones start, and events keep
	 * being queued until {@link #resume()}.
	 */
	void pause();

	/**
	 * Resume paused workers.
	 */
	void resume();

	/**
	 * Return whether the workers are paused.
	 * @return whether paused
	 */
	boolean isPaused();

	/**
	 * Add the key of every cached primary object that the controller selects, once each,
	 * without delay, as watch events do; counted as the source {@code reconcile-all}.
	 */
	void reconcileAll();

}
