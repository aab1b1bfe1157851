package dev.kubereconciler.sharding;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.Ticker;

/**
 * This replica's view of the partitions it holds, and the rule that decides whether a key
 * may be reconciled here now.
 *
 * <p>
 * A key is dispatched only while this replica holds the key's partition and its Lease was
 * renewed within the renew deadline, by this replica's own ticker. Renewal times are
 * recorded as the ticker's reading <em>before</em> the renewing request was sent, so the
 * rule errs on the side of stopping early. A handover stops dispatching first, then waits
 * for the partition's in-flight reconciles up to the shutdown timeout, then interrupts
 * them, and only then lets the Lease go.
 */
public final class PartitionTable implements KeyOwnership {

	private static final Logger logger = LoggerFactory.getLogger(PartitionTable.class);

	private static final Duration DEFERRAL = Duration.ofMillis(100);

	private final Partitioner partitioner;

	private final Ticker ticker;

	private final long renewDeadlineNanos;

	private final long shutdownTimeoutNanos;

	private final long abandonGraceNanos;

	private final Slot[] slots;

	private volatile PartitionHoldListener holdListener = PartitionHoldListener.NONE;

	/**
	 * Create a table in which no partition is held.
	 * @param partitioner maps keys to partitions
	 * @param ticker this replica's monotonic clock
	 * @param renewDeadline how long after its last renewal a partition's keys may still
	 * be dispatched
	 * @param shutdownTimeout how long a handover waits for in-flight reconciles before it
	 * interrupts them
	 * @param abandonGrace how long a handover waits after the interrupt before it
	 * releases the Lease anyway
	 */
	public PartitionTable(Partitioner partitioner, Ticker ticker, Duration renewDeadline, Duration shutdownTimeout,
			Duration abandonGrace) {
		this.partitioner = partitioner;
		this.ticker = ticker;
		this.renewDeadlineNanos = renewDeadline.toNanos();
		this.shutdownTimeoutNanos = shutdownTimeout.toNanos();
		this.abandonGraceNanos = abandonGrace.toNanos();
		this.slots = new Slot[partitioner.partitions()];
		for (int p = 0; p < this.slots.length; p++) {
			this.slots[p] = new Slot();
		}
	}

	public Partitioner partitioner() {
		return this.partitioner;
	}

	/**
	 * Set the listener told when this replica starts and stops holding a partition; set
	 * it before the coordinator's first round, so that it sees every change.
	 * @param listener the listener
	 */
	public void holdListener(PartitionHoldListener listener) {
		this.holdListener = (listener != null) ? listener : PartitionHoldListener.NONE;
	}

	@Override
	public boolean mayDispatch(Request request) {
		Slot slot = this.slots[this.partitioner.partitionOf(request)];
		long now = this.ticker.read();
		synchronized (slot) {
			return slot.state == State.HELD && now - slot.renewedAt < this.renewDeadlineNanos;
		}
	}

	/**
	 * Put off, rather than drop, a key whose partition is held but not renewed within the
	 * renew deadline: the next renewal makes it dispatchable again, and if the partition
	 * is lost instead, the key is dropped at its next attempt.
	 */
	@Override
	public @Nullable Duration deferral(Request request) {
		Slot slot = this.slots[this.partitioner.partitionOf(request)];
		synchronized (slot) {
			return (slot.state == State.HELD) ? DEFERRAL : null;
		}
	}

	@Override
	public @Nullable Permit tryDispatch(Request request) {
		Slot slot = this.slots[this.partitioner.partitionOf(request)];
		long now = this.ticker.read();
		synchronized (slot) {
			if (slot.state != State.HELD || now - slot.renewedAt >= this.renewDeadlineNanos) {
				return null;
			}
			InFlight inFlight = new InFlight(slot, Thread.currentThread());
			slot.inFlight.add(inFlight);
			return inFlight;
		}
	}

	/**
	 * Record that this replica acquired a partition's Lease.
	 * @param partition the partition
	 * @param renewedAt the ticker's reading before the acquiring request was sent
	 */
	public void acquired(int partition, long renewedAt) {
		Slot slot = this.slots[partition];
		synchronized (slot) {
			slot.state = State.HELD;
			slot.renewedAt = renewedAt;
			notifyHeld(partition);
		}
	}

	/**
	 * Record a successful renewal of a held partition's Lease; ignored unless the
	 * partition is held or being handed over.
	 * @param partition the partition
	 * @param renewedAt the ticker's reading before the renewing request was sent
	 */
	public void renewed(int partition, long renewedAt) {
		Slot slot = this.slots[partition];
		synchronized (slot) {
			if (slot.state != State.FREE) {
				slot.renewedAt = renewedAt;
			}
		}
	}

	/**
	 * Record that a partition's Lease is lost (renewal failed past the deadline, or
	 * another replica holds it): stop dispatching its keys at once and interrupt its
	 * in-flight reconciles.
	 * @param partition the partition
	 * @return how many in-flight reconciles were interrupted
	 */
	public int lost(int partition) {
		Slot slot = this.slots[partition];
		synchronized (slot) {
			if (slot.state != State.FREE) {
				slot.state = State.FREE;
				notifyFreed(partition, true);
			}
			return slot.interruptAll();
		}
	}

	/**
	 * Start handing a held partition over: from now on none of its keys is dispatched.
	 * @param partition the partition
	 */
	public void beginHandover(int partition) {
		Slot slot = this.slots[partition];
		synchronized (slot) {
			if (slot.state == State.HELD) {
				slot.state = State.HANDING_OVER;
				slot.handoverStartedAt = this.ticker.read();
				slot.interruptedAt = -1;
				slot.interrupted = false;
			}
		}
	}

	/**
	 * Move a partition's handover on: when no reconcile of it runs any more, it is no
	 * longer held and its Lease may be released; after the shutdown timeout the in-flight
	 * reconciles are interrupted; after the abandon grace that follows, the Lease is
	 * released anyway.
	 * @param partition a partition being handed over
	 * @return the step reached
	 */
	public HandoverStep pollHandover(int partition) {
		Slot slot = this.slots[partition];
		long now = this.ticker.read();
		synchronized (slot) {
			if (slot.state != State.HANDING_OVER) {
				return HandoverStep.RELEASE;
			}
			if (slot.inFlight.isEmpty()) {
				slot.state = State.FREE;
				notifyFreed(partition, false);
				return HandoverStep.RELEASE;
			}
			if (!slot.interrupted) {
				if (now - slot.handoverStartedAt < this.shutdownTimeoutNanos) {
					return HandoverStep.DRAINING;
				}
				slot.interrupted = true;
				slot.interruptedAt = now;
				int count = slot.interruptAll();
				logger.warn("Handover of partition {}: interrupted {} reconcile(s) still running after {} ms",
						partition, count, this.shutdownTimeoutNanos / 1_000_000);
				return HandoverStep.INTERRUPTED;
			}
			if (now - slot.interruptedAt < this.abandonGraceNanos) {
				return HandoverStep.INTERRUPTED;
			}
			logger.error("Handover of partition {}: {} reconcile(s) ignored the interrupt; releasing the Lease "
					+ "anyway, so they may overlap with the new holder", partition, slot.inFlight.size());
			slot.state = State.FREE;
			notifyFreed(partition, false);
			return HandoverStep.RELEASE;
		}
	}

	/**
	 * Return whether this replica holds a partition, handing over or not.
	 * @param partition the partition
	 * @return whether it is held
	 */
	public boolean holds(int partition) {
		Slot slot = this.slots[partition];
		synchronized (slot) {
			return slot.state != State.FREE;
		}
	}

	/**
	 * Return whether a partition is being handed over.
	 * @param partition the partition
	 * @return whether its handover has begun and not finished
	 */
	public boolean isHandingOver(int partition) {
		Slot slot = this.slots[partition];
		synchronized (slot) {
			return slot.state == State.HANDING_OVER;
		}
	}

	/**
	 * Return the partitions this replica holds, handing over or not.
	 * @return the partitions, ascending
	 */
	public List<Integer> held() {
		List<Integer> held = new ArrayList<>();
		for (int p = 0; p < this.slots.length; p++) {
			if (holds(p)) {
				held.add(p);
			}
		}
		return held;
	}

	/**
	 * Return how many reconciles of a partition run now.
	 * @param partition the partition
	 * @return the in-flight count
	 */
	public int inFlight(int partition) {
		Slot slot = this.slots[partition];
		synchronized (slot) {
			return slot.inFlight.size();
		}
	}

	// a failing listener must not leave a slot half changed or stop a handover
	private void notifyHeld(int partition) {
		try {
			this.holdListener.held(partition);
		}
		catch (RuntimeException ex) {
			logger.warn("Partition hold listener failed for partition {}", partition, ex);
		}
	}

	private void notifyFreed(int partition, boolean lost) {
		try {
			this.holdListener.freed(partition, lost);
		}
		catch (RuntimeException ex) {
			logger.warn("Partition hold listener failed for partition {}", partition, ex);
		}
	}

	private enum State {

		FREE, HELD, HANDING_OVER

	}

	private static final class Slot {

		// all guarded by this
		private State state = State.FREE;

		private long renewedAt;

		private long handoverStartedAt;

		private long interruptedAt;

		private boolean interrupted;

		private final Set<InFlight> inFlight = new LinkedHashSet<>();

		int interruptAll() {
			for (InFlight reconcile : this.inFlight) {
				reconcile.interrupted = true;
				reconcile.thread.interrupt();
			}
			return this.inFlight.size();
		}

	}

	private static final class InFlight implements Permit {

		private final Slot slot;

		private final Thread thread;

		// guarded by slot
		private boolean interrupted;

		InFlight(Slot slot, Thread thread) {
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
