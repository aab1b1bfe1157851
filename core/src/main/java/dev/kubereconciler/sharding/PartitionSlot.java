package dev.kubereconciler.sharding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.KeyOwnership.Permit;

/**
 * One partition's state in a {@link PartitionTable}: whether it is held, its last
 * renewal, its in-flight reconciles and the keys parked until its Lease is renewed. Every
 * field is guarded by the slot itself.
 */
final class PartitionSlot {

	private static final Logger logger = LoggerFactory.getLogger(PartitionTable.class);

	State state = State.FREE;

	long renewedAt;

	long handoverStartedAt;

	long interruptedAt;

	boolean interrupted;

	final Set<InFlight> inFlight = new LinkedHashSet<>();

	private final Map<ParkedKey, Runnable> parked = new LinkedHashMap<>();

	int interruptAll() {
		for (InFlight reconcile : this.inFlight) {
			reconcile.interrupted = true;
			reconcile.thread.interrupt();
		}
		return this.inFlight.size();
	}

	void park(Request request, Object owner, Runnable resume) {
		this.parked.putIfAbsent(new ParkedKey(owner, request), resume);
	}

	int parked() {
		return this.parked.size();
	}

	/**
	 * Take every parked key out of the slot, to be given back outside its lock.
	 * @return the resumes of the parked keys
	 */
	List<Runnable> unpark() {
		if (this.parked.isEmpty()) {
			return List.of();
		}
		List<Runnable> resumes = new ArrayList<>(this.parked.values());
		this.parked.clear();
		return resumes;
	}

	/**
	 * Give parked keys back to their queues, where they are decided again.
	 * @param resumes the resumes taken by {@link #unpark()}
	 */
	static void resume(List<Runnable> resumes) {
		for (Runnable resume : resumes) {
			try {
				resume.run();
			}
			catch (RuntimeException ex) {
				// one queue's failure must not keep the other keys parked
				logger.warn("Could not give a parked key back to its queue", ex);
			}
		}
	}

	enum State {

		FREE, HELD, HANDING_OVER

	}

	private record ParkedKey(Object owner, Request request) {
	}

	static final class InFlight implements Permit {

		private final PartitionSlot slot;

		private final Thread thread;

		// guarded by slot
		private boolean interrupted;

		InFlight(PartitionSlot slot, Thread thread) {
			this.slot = slot;
			this.thread = thread;
		}

		@Override
		public void close() {
			synchronized (this.slot) {
				this.slot.inFlight.remove(this);
				if (this.interrupted && this.thread == Thread.currentThread()) {
					// the interrupt was meant for this reconcile, not for the worker's
					// next wait
					Thread.interrupted();
				}
			}
		}

	}

}
