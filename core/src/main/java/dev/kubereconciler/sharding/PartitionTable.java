package dev.kubereconciler.sharding;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
 * them, and only then lets the Lease go. A key of a held partition whose renewal is past
 * the deadline is parked until the partition is renewed, lost or handed over, so that
 * renewals that keep failing (an API server outage) do not cycle it through the workers.
 */
public final class PartitionTable implements KeyOwnership {

	private static final Logger logger = LoggerFactory.getLogger(PartitionTable.class);

	private final Partitioner partitioner;

	private final Ticker ticker;

	private final long renewDeadlineNanos;

	private final long shutdownTimeoutNanos;

	private final long abandonGraceNanos;

	private final PartitionSlot[] slots;

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
		this.slots = new PartitionSlot[partitioner.partitions()];
		for (int p = 0; p < this.slots.length; p++) {
			this.slots[p] = new PartitionSlot();
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
		PartitionSlot slot = this.slots[this.partitioner.partitionOf(request)];
		long now = this.ticker.read();
		synchronized (slot) {
			return slot.state == PartitionSlot.State.HELD && now - slot.renewedAt < this.renewDeadlineNanos;
		}
	}

	/**
	 * Park, rather than drop, a key whose partition is held but not renewed within the
	 * renew deadline, however long the coordinator's rounds keep failing: the key leaves
	 * its queue until the partition is renewed (it is dispatched then), lost or handed
	 * over (it is dropped then, at its next attempt). A key of a partition renewed since
	 * the check is given back at once.
	 */
	@Override
	public boolean park(Request request, Object owner, Runnable resume) {
		PartitionSlot slot = this.slots[this.partitioner.partitionOf(request)];
		long now = this.ticker.read();
		synchronized (slot) {
			if (slot.state != PartitionSlot.State.HELD) {
				return false;
			}
			if (now - slot.renewedAt >= this.renewDeadlineNanos) {
				slot.park(request, owner, resume);
				return true;
			}
		}
		resume.run();
		return true;
	}

	/**
	 * Return how many keys are parked until a partition is renewed, lost or handed over.
	 * @param partition the partition
	 * @return the parked keys
	 */
	public int parked(int partition) {
		PartitionSlot slot = this.slots[partition];
		synchronized (slot) {
			return slot.parked();
		}
	}

	@Override
	public @Nullable Permit tryDispatch(Request request) {
		PartitionSlot slot = this.slots[this.partitioner.partitionOf(request)];
		long now = this.ticker.read();
		synchronized (slot) {
			if (slot.state != PartitionSlot.State.HELD || now - slot.renewedAt >= this.renewDeadlineNanos) {
				return null;
			}
			PartitionSlot.InFlight inFlight = new PartitionSlot.InFlight(slot, Thread.currentThread());
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
		PartitionSlot slot = this.slots[partition];
		synchronized (slot) {
			slot.state = PartitionSlot.State.HELD;
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
		PartitionSlot slot = this.slots[partition];
		List<Runnable> parked;
		synchronized (slot) {
			if (slot.state == PartitionSlot.State.FREE) {
				return;
			}
			slot.renewedAt = renewedAt;
			parked = slot.unpark();
		}
		PartitionSlot.resume(parked);
	}

	/**
	 * Record that a partition's Lease is lost (renewal failed past the deadline, or
	 * another replica holds it): stop dispatching its keys at once and interrupt its
	 * in-flight reconciles.
	 * @param partition the partition
	 * @return how many in-flight reconciles were interrupted
	 */
	public int lost(int partition) {
		PartitionSlot slot = this.slots[partition];
		List<Runnable> parked;
		int interrupted;
		synchronized (slot) {
			if (slot.state != PartitionSlot.State.FREE) {
				slot.state = PartitionSlot.State.FREE;
				notifyFreed(partition, true);
			}
			interrupted = slot.interruptAll();
			parked = slot.unpark();
		}
		PartitionSlot.resume(parked);
		return interrupted;
	}

	/**
	 * Start handing a held partition over: from now on none of its keys is dispatched.
	 * @param partition the partition
	 */
	public void beginHandover(int partition) {
		PartitionSlot slot = this.slots[partition];
		List<Runnable> parked;
		synchronized (slot) {
			if (slot.state != PartitionSlot.State.HELD) {
				return;
			}
			slot.state = PartitionSlot.State.HANDING_OVER;
			slot.handoverStartedAt = this.ticker.read();
			slot.interruptedAt = -1;
			slot.interrupted = false;
			parked = slot.unpark();
		}
		PartitionSlot.resume(parked);
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
		PartitionSlot slot = this.slots[partition];
		long now = this.ticker.read();
		synchronized (slot) {
			if (slot.state != PartitionSlot.State.HANDING_OVER) {
				return HandoverStep.RELEASE;
			}
			if (slot.inFlight.isEmpty()) {
				slot.state = PartitionSlot.State.FREE;
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
			slot.state = PartitionSlot.State.FREE;
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
		PartitionSlot slot = this.slots[partition];
		synchronized (slot) {
			return slot.state != PartitionSlot.State.FREE;
		}
	}

	/**
	 * Return whether a partition is being handed over.
	 * @param partition the partition
	 * @return whether its handover has begun and not finished
	 */
	public boolean isHandingOver(int partition) {
		PartitionSlot slot = this.slots[partition];
		synchronized (slot) {
			return slot.state == PartitionSlot.State.HANDING_OVER;
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
		PartitionSlot slot = this.slots[partition];
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

}
