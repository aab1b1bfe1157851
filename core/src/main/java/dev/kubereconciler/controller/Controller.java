package dev.kubereconciler.controller;

import java.util.Set;
import java.util.concurrent.CompletableFuture;

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

	/**
	 * Return the namespaces the controller reconciles now: its definition's, until
	 * {@link #changeNamespaces(Set)} changes them. An added namespace counts once its
	 * caches synced.
	 * @return the namespaces, empty for all of them
	 */
	Set<String> namespaces();

	/**
	 * Change the namespaces the controller reconciles while it runs, as Java Operator
	 * SDK's {@code changeNamespaces}. A removed namespace is left at once: its informers
	 * stop unless another controller needs them, its queued keys are dropped without a
	 * reconcile, and a reconcile of it that runs finishes. An added namespace gets its
	 * informers, which list and watch it, and joins once they synced: the keys of its
	 * objects are then enqueued once, as an initial list's. The keys of the namespaces
	 * that stay are untouched. The derived RBAC covers only the namespaces declared at
	 * build time: a namespace the API server refuses to list is logged, naming it and the
	 * missing permission, and waits while its informer retries; the controller keeps
	 * running in the others.
	 * @param namespaces the namespaces from now on; empty for all of them, which only a
	 * controller that started with all of them can take
	 * @return completes once every added namespace joined; never, for a namespace the
	 * server keeps refusing
	 * @throws IllegalArgumentException for a blank namespace, or an empty set for a
	 * controller whose informers list named namespaces
	 */
	CompletableFuture<Void> changeNamespaces(Set<String> namespaces);

}
