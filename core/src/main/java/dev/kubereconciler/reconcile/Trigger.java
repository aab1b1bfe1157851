package dev.kubereconciler.reconcile;

/**
 * Why a key was queued for the reconcile that is running.
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
