package dev.kubereconciler.internal.queue;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.Trigger;

/**
 * The state of one pending or held key of a {@link KeyTable}, guarded by itself.
 */
final class KeyEntry {

	static final int PENDING = 0;

	static final int HELD = 1;

	// held, and added again meanwhile: ready again once done
	static final int HELD_DIRTY = 2;

	// left the map: an add must make a new entry
	static final int RETIRED = 3;

	// the key, for the worker that takes this entry from the ready keys
	final Object item;

	// in priority mode, this entry's node among the ready keys while it is ready;
	// guarded by the ready keys' lock
	@Nullable Object readyNode;

	int state = PENDING;

	// the cause of the add that made the key pending, and of the hold that follows it
	Trigger cause;

	// pending: since when; held: since when a worker works on it
	long time;

	// the priority it is ready at, and the one it was taken with while held
	int priority;

	// set with HELD_DIRTY
	@Nullable Trigger nextCause;

	long nextAddedAt;

	int nextPriority;

	KeyEntry(Object item, Trigger cause, int priority, long time) {
		this.item = item;
		this.cause = cause;
		this.priority = priority;
		this.time = time;
	}

	synchronized boolean isPending() {
		return this.state == PENDING || this.state == HELD_DIRTY;
	}

	boolean isHeld() {
		return this.state == HELD || this.state == HELD_DIRTY;
	}

	synchronized long heldFor(long now) {
		return isHeld() ? now - this.time : 0;
	}

	synchronized boolean isHeldNow() {
		return isHeld();
	}

}
