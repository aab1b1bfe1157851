package dev.kubereconciler.queue;

/**
 * Why a key was added to a {@link RateLimitingQueue}; the latest cause of each key is
 * kept so that the manager gate can apply its policy per cause.
 */
public enum AddCause {

	/** A watch event: add, update, delete or resync. Added without delay. */
	EVENT,

	/** A rate-limited retry, after an error or {@code Result.requeue()}. */
	RETRY,

	/** A {@code Result.requeueAfter(d)}: added after exactly {@code d}. */
	REQUEUE_AFTER

}
