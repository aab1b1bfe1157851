package dev.kubereconciler.sharding;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.Request;

/**
 * Decides, just before a worker reconciles a key, whether this replica may reconcile it
 * now; a worker drops a key it may not reconcile without calling the reconciler.
 */
@FunctionalInterface
public interface KeyOwnership {

	/**
	 * Ownership that lets every key through, used when sharding is off.
	 */
	KeyOwnership ALL = (request) -> Permit.NONE;

	/**
	 * Ask to reconcile a key on the calling thread.
	 * @param request the key
	 * @return a permit to close when the reconcile returns, or {@code null} if this
	 * replica must not reconcile the key
	 */
	@Nullable Permit tryDispatch(Request request);

	/**
	 * Return whether a key may be reconciled here, without claiming it; checked before
	 * the key takes a token from the manager bucket, so that another replica's keys do
	 * not spend it.
	 * @param request the key
	 * @return {@code false} if this replica must not reconcile the key
	 */
	default boolean mayDispatch(Request request) {
		return true;
	}

	/**
	 * Set aside a key this replica may not reconcile now but still owns (its Lease is
	 * held, only not renewed recently), instead of dropping it: the key leaves its queue,
	 * and {@code resume} gives it back once, when this replica may reconcile it again or
	 * must decide again. A key parked again by the same owner before then keeps its first
	 * {@code resume}.
	 * @param request the key
	 * @param owner the queue the key came from
	 * @param resume gives the key back to its queue; it may run on any thread, before
	 * this method returns included
	 * @return {@code true} if the key was parked, {@code false} to drop it because
	 * another replica owns it
	 */
	default boolean park(Request request, Object owner, Runnable resume) {
		return false;
	}

	/**
	 * Held for the length of one reconcile; the owner may interrupt the reconciling
	 * thread while the permit is open, when it loses the key's partition.
	 */
	interface Permit extends AutoCloseable {

		/**
		 * A permit that tracks nothing.
		 */
		Permit NONE = () -> {
		};

		/**
		 * Mark the reconcile finished, on the thread that reconciled.
		 */
		@Override
		void close();

	}

}
