package dev.kubereconciler.reconcile;

/**
 * Why a key was queued: the cause of its latest add to the work queue, which the manager
 * gate and the metrics tell apart, and which a reconcile reads from its context.
 *
 * <p>
 * The queue itself records {@link #EVENT}, {@link #RETRY} and {@link #REQUEUE_AFTER}: an
 * informer delivers a resync as an event, and the reconcile context tells it apart as
 * {@link #RESYNC}.
 */
public enum Trigger {

	/** A watch event: the object, or an object it owns, was added, changed or deleted. */
	EVENT,

	/** A periodic resync delivered the object again without a change. */
	RESYNC,

	/** A rate-limited retry, after an error or {@code Result.requeue()}. */
	RETRY,

	/** A {@code Result.requeueAfter(d)} came due. */
	REQUEUE_AFTER

}
