package dev.kubereconciler.sharding;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.time.ManualClock;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.KeyOwnership.Permit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PartitionTable}: the dispatch rule and the handover order.
 */
class PartitionTableTests {

	private static final Request KEY = Request.fromKey("default/widget-0");

	private static final Request OTHER_KEY = Request.fromKey("default/widget-1");

	private final ManualClock ticker = new ManualClock(1_000);

	private final Partitioner partitioner = new Partitioner(32);

	private final int partition = this.partitioner.partitionOf(KEY);

	private final int otherPartition = this.partitioner.partitionOf(OTHER_KEY);

	private final PartitionTable table = new PartitionTable(this.partitioner, this.ticker, Duration.ofSeconds(10),
			Duration.ofSeconds(30), Duration.ofSeconds(5));

	@Test
	void keysOfAPartitionNotHeldAreNotDispatched() {
		assertThat(this.table.tryDispatch(KEY)).isNull();
		this.table.acquired(this.partition, this.ticker.read());
		assertThat(this.table.tryDispatch(KEY)).isNotNull();
		assertThat(this.partitioner.partitionOf(OTHER_KEY)).isNotEqualTo(this.partition);
		assertThat(this.table.tryDispatch(OTHER_KEY)).isNull();
	}

	@Test
	void dispatchStopsExactlyAtTheRenewDeadlineByThisReplicasClock() {
		this.table.acquired(this.partition, this.ticker.read());
		this.ticker.advance(Duration.ofSeconds(10).minusNanos(1));
		Permit permit = this.table.tryDispatch(KEY);
		assertThat(permit).isNotNull();
		permit.close();
		this.ticker.advance(Duration.ofNanos(1));
		assertThat(this.table.tryDispatch(KEY)).isNull();
		this.table.renewed(this.partition, this.ticker.read());
		assertThat(this.table.tryDispatch(KEY)).isNotNull();
	}

	@Test
	void aKeyOfAHeldButStalePartitionIsParkedUntilTheRenewalAndAKeyOfAPartitionNotHeldIsDropped() {
		List<Request> resumed = new ArrayList<>();
		Object queue = new Object();
		assertThat(this.table.park(KEY, queue, () -> resumed.add(KEY))).isFalse();
		this.table.acquired(this.partition, this.ticker.read());
		this.ticker.advance(Duration.ofSeconds(10));
		assertThat(this.table.mayDispatch(KEY)).isFalse();
		assertThat(this.table.park(KEY, queue, () -> resumed.add(KEY))).isTrue();
		assertThat(this.table.park(KEY, queue, () -> resumed.add(OTHER_KEY))).as("parked again by its queue").isTrue();
		this.ticker.advance(Duration.ofHours(1));
		assertThat(resumed).as("a key waits however long the renewal takes").isEmpty();
		assertThat(this.table.parked(this.partition)).isEqualTo(1);
		this.table.renewed(this.partition, this.ticker.read());
		assertThat(resumed).containsExactly(KEY);
		assertThat(this.table.parked(this.partition)).isZero();
	}

	@Test
	void aKeyParkedJustAfterARenewalIsGivenBackAtOnce() {
		List<Request> resumed = new ArrayList<>();
		this.table.acquired(this.partition, this.ticker.read());
		assertThat(this.table.park(KEY, new Object(), () -> resumed.add(KEY))).isTrue();
		assertThat(resumed).containsExactly(KEY);
	}

	@Test
	void parkedKeysComeBackWhenThePartitionIsLostOrHandedOverAndAreDroppedThen() {
		List<Request> resumed = new ArrayList<>();
		this.table.acquired(this.partition, this.ticker.read());
		this.ticker.advance(Duration.ofSeconds(10));
		this.table.park(KEY, new Object(), () -> resumed.add(KEY));
		this.table.beginHandover(this.partition);
		assertThat(resumed).containsExactly(KEY);
		assertThat(this.table.park(KEY, new Object(), () -> resumed.add(KEY))).as("the next holder enqueues it")
			.isFalse();
		this.table.acquired(this.otherPartition, this.ticker.read());
		this.ticker.advance(Duration.ofSeconds(10));
		this.table.park(OTHER_KEY, new Object(), () -> resumed.add(OTHER_KEY));
		this.table.lost(this.otherPartition);
		assertThat(resumed).containsExactly(KEY, OTHER_KEY);
		assertThat(this.table.park(OTHER_KEY, new Object(), () -> resumed.add(OTHER_KEY))).isFalse();
	}

	@Test
	void renewalIsCountedFromWhenItWasSentNotWhenItReturned() {
		long sent = this.ticker.read();
		this.ticker.advance(Duration.ofSeconds(4));
		this.table.acquired(this.partition, sent);
		this.ticker.advance(Duration.ofSeconds(6));
		assertThat(this.table.tryDispatch(KEY)).isNull();
	}

	@Test
	void handoverStopsDispatchFirstThenReleasesOnceInFlightReconcilesFinish() {
		this.table.acquired(this.partition, this.ticker.read());
		Permit running = this.table.tryDispatch(KEY);
		this.table.beginHandover(this.partition);
		assertThat(this.table.tryDispatch(KEY)).isNull();
		assertThat(this.table.holds(this.partition)).isTrue();
		this.ticker.advance(Duration.ofSeconds(29));
		this.table.renewed(this.partition, this.ticker.read());
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.DRAINING);
		assertThat(this.table.tryDispatch(KEY)).isNull();
		running.close();
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.RELEASE);
		assertThat(this.table.holds(this.partition)).isFalse();
		assertThat(Thread.interrupted()).isFalse();
	}

	@Test
	void handoverInterruptsInFlightReconcilesAtTheShutdownTimeout() {
		this.table.acquired(this.partition, this.ticker.read());
		Permit running = this.table.tryDispatch(KEY);
		this.table.beginHandover(this.partition);
		this.ticker.advance(Duration.ofSeconds(30).minusNanos(1));
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.DRAINING);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		this.ticker.advance(Duration.ofNanos(1));
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.INTERRUPTED);
		assertThat(Thread.currentThread().isInterrupted()).isTrue();
		// the Lease is kept until the interrupted reconcile returns
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.INTERRUPTED);
		running.close();
		assertThat(Thread.currentThread().isInterrupted()).as("interrupt cleared when the reconcile returned")
			.isFalse();
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.RELEASE);
	}

	@Test
	void handoverReleasesAfterTheAbandonGraceWhenAReconcileIgnoresTheInterrupt() {
		this.table.acquired(this.partition, this.ticker.read());
		Permit hostile = this.table.tryDispatch(KEY);
		this.table.beginHandover(this.partition);
		this.ticker.advance(Duration.ofSeconds(30));
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.INTERRUPTED);
		Thread.interrupted();
		this.ticker.advance(Duration.ofSeconds(5).minusNanos(1));
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.INTERRUPTED);
		this.ticker.advance(Duration.ofNanos(1));
		assertThat(this.table.pollHandover(this.partition)).isEqualTo(HandoverStep.RELEASE);
		assertThat(this.table.holds(this.partition)).isFalse();
		hostile.close();
		assertThat(this.table.inFlight(this.partition)).isZero();
	}

	@Test
	void lostPartitionStopsDispatchAndInterruptsAtOnce() {
		this.table.acquired(this.partition, this.ticker.read());
		Permit running = this.table.tryDispatch(KEY);
		assertThat(this.table.lost(this.partition)).isEqualTo(1);
		assertThat(Thread.currentThread().isInterrupted()).isTrue();
		assertThat(this.table.tryDispatch(KEY)).isNull();
		running.close();
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(this.table.held()).isEmpty();
	}

	@Test
	void renewalOfAPartitionNotHeldDoesNotMakeItHeld() {
		this.table.renewed(this.partition, this.ticker.read());
		assertThat(this.table.tryDispatch(KEY)).isNull();
		assertThat(this.table.held()).isEmpty();
	}

	@Test
	void heldListsPartitionsBeingHandedOverUntilReleased() {
		this.table.acquired(3, this.ticker.read());
		this.table.acquired(5, this.ticker.read());
		this.table.beginHandover(5);
		assertThat(this.table.held()).containsExactly(3, 5);
		assertThat(this.table.isHandingOver(5)).isTrue();
		assertThat(this.table.pollHandover(5)).isEqualTo(HandoverStep.RELEASE);
		assertThat(this.table.held()).containsExactly(3);
	}

}
