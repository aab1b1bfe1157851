package dev.kubereconciler.sharding;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Lease;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.time.Ticker;

/**
 * Coordinates this replica with the others through Leases, one round every retry period:
 * it renews its member Lease, observes every Lease of the group, computes the
 * {@link Assignment} over the live members, acquires the partitions assigned to it whose
 * Lease is free or expired, renews those it holds, and hands over those now assigned to
 * another live member.
 *
 * <p>
 * As in client-go's leader election, another replica's Lease counts as expired only when
 * this replica has seen it unchanged for the lease duration by its own ticker, counted
 * from when the list that first showed its current version returned; the times written in
 * the Lease are never compared across machines. A partition Lease that disappears
 * (deleted by hand) is treated alike: its holder writes it again at its next round, and
 * another replica creates it only once it has seen it missing for the lease duration.
 */
public final class ShardCoordinator {

	private static final Logger logger = LoggerFactory.getLogger(ShardCoordinator.class);

	private final ShardingSettings settings;

	private final ShardLeases leases;

	private final PartitionTable table;

	private final Ticker ticker;

	private final ShardListener listener;

	private final LeaseObservations observations;

	private final Set<String> partitionLeaseNames;

	private final V1Lease[] held;

	private final long[] lastRenewed;

	private final AtomicLong handovers = new AtomicLong();

	private @Nullable V1Lease member;

	private volatile List<String> members = List.of();

	/**
	 * Create a coordinator.
	 * @param client the API client
	 * @param settings the sharding settings
	 * @param table this replica's partition table, sharing the settings' partition count
	 * @param ticker this replica's monotonic clock, the one the table uses
	 * @param clock the wall clock written into the Leases for people to read
	 * @param listener told of acquisitions, handovers, losses and membership changes
	 */
	public ShardCoordinator(ApiClient client, ShardingSettings settings, PartitionTable table, Ticker ticker,
			Clock clock, ShardListener listener) {
		if (table.partitioner().partitions() != settings.partitions()) {
			throw new IllegalArgumentException("The table has " + table.partitioner().partitions()
					+ " partitions but the settings " + settings.partitions());
		}
		this.settings = settings;
		this.leases = new ShardLeases(client, settings, clock);
		this.table = table;
		this.ticker = ticker;
		this.listener = Objects.requireNonNull(listener, "listener must not be null");
		this.held = new V1Lease[settings.partitions()];
		this.lastRenewed = new long[settings.partitions()];
		this.observations = new LeaseObservations(settings.timing().leaseDuration().toNanos());
		this.partitionLeaseNames = IntStream.range(0, settings.partitions())
			.mapToObj(settings::partitionLeaseName)
			.collect(Collectors.toUnmodifiableSet());
	}

	public ShardingSettings settings() {
		return this.settings;
	}

	public PartitionTable table() {
		return this.table;
	}

	/**
	 * Return the live members seen in the last round, this replica included.
	 * @return the members' identities, sorted
	 */
	public List<String> members() {
		return this.members;
	}

	/**
	 * Return how many partitions this replica handed over (released to another member) so
	 * far.
	 * @return the handover count
	 */
	public long handovers() {
		return this.handovers.get();
	}

	/**
	 * Run one round. A failed API call ends the round early; dispatch stops by itself
	 * when renewals keep failing past the renew deadline.
	 * @throws ApiException if the API server could not be reached
	 */
	public synchronized void round() throws ApiException {
		this.member = this.leases.renewMember(this.member);
		List<V1Lease> all = this.leases.list();
		// read after the list returns: a version first seen in it may have been written
		// at any time before, so counting its lease duration from the start of the round
		// (before a slow renewal and list) would expire it early by that much
		long now = this.ticker.read();
		Map<String, V1Lease> byName = new HashMap<>();
		all.forEach((lease) -> byName.put(lease.getMetadata().getName(), lease));
		this.observations.listed(byName, this.partitionLeaseNames::contains, now);
		List<String> live = new ArrayList<>();
		live.add(this.settings.identity());
		for (V1Lease lease : all) {
			String holder = ShardLeases.holder(lease);
			if (ShardLeases.MEMBER.equals(ShardLeases.role(lease)) && holder != null
					&& !this.observations.isExpired(lease.getMetadata().getName(), now)
					&& !holder.equals(this.settings.identity())) {
				live.add(holder);
			}
		}
		boolean othersHold = all.stream()
			.anyMatch((lease) -> ShardLeases.PARTITION.equals(ShardLeases.role(lease))
					&& ShardLeases.holder(lease) != null
					&& !this.settings.identity().equals(ShardLeases.holder(lease)));
		// every missing partition Lease, assigned here or not, starts its wait now
		boolean[] creatable = new boolean[this.settings.partitions()];
		for (int p = 0; p < creatable.length; p++) {
			String name = this.settings.partitionLeaseName(p);
			creatable[p] = !byName.containsKey(name) && this.observations.mayCreate(name, othersHold, now);
		}
		Assignment assignment = Assignment.compute(live, this.settings.partitions());
		if (!assignment.members().equals(this.members)) {
			logger.info("Shard members are now {}", assignment.members());
			this.members = assignment.members();
			this.listener.membersChanged(this.members);
		}
		for (int p = 0; p < this.settings.partitions(); p++) {
			partition(p, byName.get(this.settings.partitionLeaseName(p)), creatable[p], assignment, now);
		}
	}

	private void partition(int p, @Nullable V1Lease lease, boolean creatable, Assignment assignment, long now)
			throws ApiException {
		if (this.table.holds(p)) {
			keep(p, lease, assignment);
			return;
		}
		String self = this.settings.identity();
		if (!self.equals(assignment.ownerOf(p))) {
			return;
		}
		V1Lease acquired;
		long sentAt = this.ticker.read();
		if (lease == null && creatable) {
			acquired = this.leases.create(this.settings.partitionLeaseName(p), ShardLeases.PARTITION);
		}
		else if (lease != null && isFree(lease, now)) {
			acquired = this.leases.acquire(lease);
		}
		else {
			return;
		}
		if (acquired != null) {
			this.held[p] = acquired;
			this.lastRenewed[p] = sentAt;
			this.table.acquired(p, sentAt);
			logger.info("Acquired partition {}", p);
			this.listener.acquired(p);
		}
	}

	// a partition this replica holds: write its Lease again if it was deleted, renew it,
	// or hand it over when the assignment gave it to another replica
	private void keep(int p, @Nullable V1Lease lease, Assignment assignment) throws ApiException {
		String self = this.settings.identity();
		boolean renewed = false;
		if (lease == null) {
			// deleted by hand: the others wait a lease duration before they create
			// it, so the holder writes it again and keeps its reconciles running
			long sentAt = this.ticker.read();
			lease = this.leases.create(this.settings.partitionLeaseName(p), ShardLeases.PARTITION);
			if (lease == null) {
				lose(p, "its Lease was deleted and another replica created it");
				return;
			}
			logger.warn("The Lease of partition {} was deleted; this replica holds it and wrote it again", p);
			this.lastRenewed[p] = sentAt;
			this.table.renewed(p, sentAt);
			renewed = true;
		}
		else if (!self.equals(ShardLeases.holder(lease))) {
			lose(p, "another replica holds its Lease");
			return;
		}
		// the list is at least as recent as this replica's last write
		this.held[p] = lease;
		if (!this.table.isHandingOver(p) && !self.equals(assignment.ownerOf(p))) {
			logger.info("Handing partition {} over to {}", p, assignment.ownerOf(p));
			this.table.beginHandover(p);
		}
		if (this.table.isHandingOver(p) && this.table.pollHandover(p) == HandoverStep.RELEASE) {
			V1Lease released = this.leases.release(this.held[p]);
			this.held[p] = null;
			if (released != null) {
				this.handovers.incrementAndGet();
				this.listener.handedOver(p);
			}
			return;
		}
		if (!renewed) {
			// read per call: a round of many partitions takes a while on a loaded
			// API server
			renew(p, this.ticker.read());
		}
	}

	private void renew(int p, long sentAt) throws ApiException {
		V1Lease renewed = null;
		try {
			renewed = this.leases.renew(this.held[p]);
		}
		catch (ApiException ex) {
			logger.warn("Could not renew the Lease of partition {}", p, ex);
		}
		if (renewed != null) {
			this.held[p] = renewed;
			this.lastRenewed[p] = sentAt;
			this.table.renewed(p, sentAt);
		}
		else if (this.ticker.read() - this.lastRenewed[p] >= this.settings.timing().renewDeadline().toNanos()) {
			lose(p, "its Lease was not renewed within the renew deadline");
		}
	}

	private void lose(int p, String why) {
		int interrupted = this.table.lost(p);
		this.held[p] = null;
		logger.warn("Lost partition {}: {}; interrupted {} reconcile(s)", p, why, interrupted);
		this.listener.lost(p);
	}

	private boolean isFree(V1Lease lease, long now) {
		String holder = ShardLeases.holder(lease);
		return holder == null || holder.equals(this.settings.identity())
				|| this.observations.isExpired(lease.getMetadata().getName(), now);
	}

	/**
	 * Hand every held partition over and release its Lease, waiting for in-flight
	 * reconciles as a handover does, then delete the member Lease so that the others
	 * rebalance at once.
	 * @param sleeper waits between polls of the handovers
	 */
	public synchronized void leave(Waiter sleeper) {
		List<Integer> held = this.table.held();
		held.forEach(this.table::beginHandover);
		for (int p : held) {
			try {
				while (this.table.pollHandover(p) != HandoverStep.RELEASE) {
					sleeper.await();
				}
				if (this.held[p] != null) {
					this.leases.release(this.held[p]);
					this.held[p] = null;
					this.handovers.incrementAndGet();
					this.listener.handedOver(p);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (ApiException ex) {
				logger.warn("Could not release the Lease of partition {}; it expires after {}", p,
						this.settings.timing().leaseDuration(), ex);
			}
		}
		try {
			if (this.member != null) {
				this.leases.delete(this.member);
				this.member = null;
			}
		}
		catch (ApiException ex) {
			logger.warn("Could not delete this replica's member Lease; it expires after {}",
					this.settings.timing().leaseDuration(), ex);
		}
	}

	/**
	 * Waits a little between two polls of a handover while leaving.
	 */
	@FunctionalInterface
	public interface Waiter {

		/**
		 * Wait before the next poll.
		 * @throws InterruptedException if the thread is interrupted
		 */
		void await() throws InterruptedException;

	}

}
