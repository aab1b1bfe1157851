package dev.kubereconciler.source;

import java.util.List;
import java.util.concurrent.Executor;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.DelayScheduler;

/**
 * What a running controller gives one of its sources: where its keys go, what the cache
 * holds, and the clock and the thread to poll on.
 */
public interface SourceContext {

	/**
	 * Return the name of the controller the source runs in.
	 * @return the controller name
	 */
	String controller();

	/**
	 * Add a key to the controller's queue without delay, as a watch event does, and count
	 * it for this source.
	 * @param request the key
	 */
	void add(Request request);

	/**
	 * Add a key at a priority of a priority queue (a first-in, first-out queue ignores
	 * it): {@link Priorities#LOW} for a key whose state the source sees for the first
	 * time, as an informer's initial list, so that real changes go first.
	 * @param request the key
	 * @param priority the priority, such as {@link Priorities#NORMAL}
	 */
	default void add(Request request, int priority) {
		add(request);
	}

	/**
	 * Return whether this replica reconciles a key: always, unless the manager shards
	 * keys across replicas and another replica owns the key's partition now.
	 * @param request the key
	 * @return whether the key is reconciled here
	 */
	default boolean owns(Request request) {
		return true;
	}

	/**
	 * Return the keys of every cached primary object the controller selects.
	 * @return the keys
	 */
	List<Request> cachedKeys();

	/**
	 * Return a cached primary object, not to be changed.
	 * @param request the key
	 * @return the object, or {@code null} when the cache holds none
	 */
	@Nullable KubernetesObject cached(Request request);

	/**
	 * Return the manager's clock, which schedules the source's periods.
	 * @return the clock
	 */
	DelayScheduler clock();

	/**
	 * Return the source's own thread, so that a poll that hangs blocks no other source
	 * and no scheduled delay.
	 * @return the executor
	 */
	Executor executor();

}
