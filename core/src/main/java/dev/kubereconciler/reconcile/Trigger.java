package dev.kubereconciler.reconcile;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

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
	REQUEUE_AFTER;

	private static final Set<Trigger> QUEUED = Collections
		.unmodifiableSet(EnumSet.of(Trigger.EVENT, Trigger.RETRY, Trigger.REQUEUE_AFTER));

	/**
	 * Return the causes a work queue records for an add, and so the ones the manager gate
	 * can apply to: every trigger but {@link #RESYNC}, which is queued as an event.
	 * @return the queued causes
	 */
	public static Set<Trigger> queued() {
		return QUEUED;
	}

}
