package dev.kubereconciler.controller;

import java.util.function.BooleanSupplier;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.queue.RateLimitingQueue;

/**
 * The priority of a watch event's add, following controller-runtime's
 * {@code handler.WithLowPriorityWhenUnchanged} ({@code pkg/handler/eventhandler.go}): a create
 * from the informer's initial list and an update whose old and new resourceVersion are equal
 * (a resync) get {@link RateLimitingQueue#LOW_PRIORITY}; every other event gets
 * {@link RateLimitingQueue#NORMAL_PRIORITY}.
 *
 * <p>client-go marks initial-list creates with {@code IsInInitialList}; client-java's
 * {@code onAdd} has no such flag, so a create that arrives before its informer has synced
 * counts as part of the initial list.
 */
final class EventPriority {

	private final BooleanSupplier synced;

	EventPriority(BooleanSupplier synced) {
		this.synced = synced;
	}

	int ofAdd() {
		return this.synced.getAsBoolean() ? RateLimitingQueue.NORMAL_PRIORITY : RateLimitingQueue.LOW_PRIORITY;
	}

	static int ofUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
		String before = resourceVersion(oldObject);
		return (before != null && before.equals(resourceVersion(newObject))) ? RateLimitingQueue.LOW_PRIORITY
				: RateLimitingQueue.NORMAL_PRIORITY;
	}

	private static String resourceVersion(KubernetesObject object) {
		return (object != null && object.getMetadata() != null) ? object.getMetadata().getResourceVersion() : null;
	}

}
