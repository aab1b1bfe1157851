package dev.kubereconciler.queue;

/**
 * The priorities of keys in a priority work queue, as controller-runtime's
 * {@code pkg/controller/priorityqueue}: a higher number is taken first, and keys of equal
 * priority go first in, first out.
 */
public final class Priorities {

	/** The priority of an ordinary add. */
	public static final int NORMAL = 0;

	/**
	 * The priority of an add that changed nothing, such as an initial list or a resync,
	 * controller-runtime's {@code handler.LowPriority}.
	 */
	public static final int LOW = -100;

	private Priorities() {
	}

}
