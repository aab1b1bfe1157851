package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.ratelimit.BucketReservation;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Trigger;

/**
 * The manager-level token bucket that every controller's workers pass before they
 * reconcile.
 *
 * <p>
 * A worker takes a reservation and waits out its delay on the worker thread, so the wait
 * is limiter delay (source {@code manager}), not queue time, and the key never goes
 * through the queue again. Reservations are granted in order, so waiting is first come,
 * first served across controllers. A policy says which causes of an add pass through the
 * gate; by default all of them do.
 *
 * <p>
 * Across the clusters of a fleet the bucket is {@link AcrossClusters#SHARED shared} (one
 * budget, whatever cluster asked) or {@link AcrossClusters#SPLIT split}: then the local
 * cluster keeps this bucket and each member cluster gets one of its own, made on its
 * first reconcile with this bucket's rate and burst and following them when they are
 * retuned.
 */
public final class ManagerGate {

	// isOpen() runs once per reconcile
	private static final int ALL_CAUSES = Trigger.queued().size();

	private final TokenBucketRateLimiter<?> bucket;

	private final Set<Trigger> appliesTo;

	private final @Nullable Duration maxWait;

	private final long maxWaitNanos;

	private final LongAdder admitted = new LongAdder();

	// passes that wait for their time to act, oldest first
	private final Deque<Pass> outstanding = new ArrayDeque<>();

	private final AcrossClusters acrossClusters;

	// the member clusters' gates when split; kept after a cluster is disengaged, so that
	// engaging it again does not refill its budget
	private final Map<String, ManagerGate> members = new ConcurrentHashMap<>();

	/**
	 * Create a gate whose bucket is shared across clusters.
	 * @param bucket the shared bucket
	 * @param appliesTo the causes that pass through the gate
	 * @param maxWait the longest a worker waits at the gate, or {@code null} for no
	 * limit; a key that would wait longer gives its token back and waits in the queue
	 * instead, so a saturated gate does not pin workers
	 */
	public ManagerGate(TokenBucketRateLimiter<?> bucket, Set<Trigger> appliesTo, @Nullable Duration maxWait) {
		this(bucket, appliesTo, maxWait, AcrossClusters.SHARED);
	}

	/**
	 * Create a gate.
	 * @param bucket the bucket, the local cluster's own when split
	 * @param appliesTo the causes that pass through the gate
	 * @param maxWait the longest a worker waits at the gate, or {@code null} for no limit
	 * @param acrossClusters whether the clusters of a fleet share the bucket or each has
	 * one of its own
	 */
	public ManagerGate(TokenBucketRateLimiter<?> bucket, Set<Trigger> appliesTo, @Nullable Duration maxWait,
			AcrossClusters acrossClusters) {
		this.acrossClusters = Objects.requireNonNull(acrossClusters, "acrossClusters must not be null");
		this.bucket = Objects.requireNonNull(bucket, "bucket must not be null");
		this.appliesTo = appliesTo.isEmpty() ? EnumSet.noneOf(Trigger.class) : EnumSet.copyOf(appliesTo);
		if (!Trigger.queued().containsAll(this.appliesTo)) {
			throw new IllegalArgumentException("The manager gate applies to the causes a queue records, "
					+ Trigger.queued() + "; a resync is queued as an event");
		}
		if (maxWait != null && maxWait.isNegative()) {
			throw new IllegalArgumentException("maxWait must not be negative, was " + maxWait);
		}
		this.maxWait = maxWait;
		this.maxWaitNanos = (maxWait != null) ? saturatedNanos(maxWait) : Long.MAX_VALUE;
	}

	private static long saturatedNanos(Duration duration) {
		// beyond about 292 years a duration has no nanosecond value; it means no limit
		return (duration.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) ? Long.MAX_VALUE : duration.toNanos();
	}

	/**
	 * Return a gate that never delays, but still counts admissions.
	 * @return an unlimited gate
	 */
	public static ManagerGate unlimited() {
		return new ManagerGate(RateLimiters.bucket(Double.POSITIVE_INFINITY, 1), EnumSet.copyOf(Trigger.queued()),
				null);
	}

	/**
	 * Return this gate with its bucket shared or split across clusters; the bucket, the
	 * causes and the max wait stay.
	 * @param acrossClusters shared or split
	 * @return this gate when it already is, or a new gate
	 */
	public ManagerGate acrossClusters(AcrossClusters acrossClusters) {
		return (acrossClusters == this.acrossClusters) ? this
				: new ManagerGate(this.bucket, this.appliesTo, this.maxWait, acrossClusters);
	}

	/**
	 * Return the gate that a reconcile in the given cluster passes: this one when the
	 * bucket is shared or the cluster is the local one, the member's own when split.
	 * @param cluster the cluster's name, empty for the local one
	 * @return the gate
	 */
	public ManagerGate forCluster(String cluster) {
		if (this.acrossClusters == AcrossClusters.SHARED || cluster.isEmpty()) {
			return this;
		}
		ManagerGate member = this.members.computeIfAbsent(cluster,
				(name) -> new ManagerGate(this.bucket.copy(), this.appliesTo, this.maxWait));
		follow(member.bucket);
		return member;
	}

	// a member's bucket takes up a retune of this one (from the endpoint or sharding's
	// division of the rate) at its next reconcile; two doubles compared on the hot path
	private void follow(TokenBucketRateLimiter<?> member) {
		if (Double.compare(member.qps(), this.bucket.qps()) != 0) {
			member.setRate(this.bucket.qps());
		}
		if (member.burst() != this.bucket.burst()) {
			member.setBurst(this.bucket.burst());
		}
	}

	/**
	 * Return the member clusters' own buckets by cluster name, empty when the bucket is
	 * shared or no member cluster reconciled yet.
	 * @return the buckets, in the order of the names
	 */
	public Map<String, TokenBucketRateLimiter<?>> clusterBuckets() {
		Map<String, TokenBucketRateLimiter<?>> buckets = new TreeMap<>();
		this.members.forEach((name, member) -> {
			follow(member.bucket);
			buckets.put(name, member.bucket);
		});
		return buckets;
	}

	public AcrossClusters acrossClusters() {
		return this.acrossClusters;
	}

	/**
	 * Return whether keys added for the given cause pass through this gate.
	 * @param cause the cause, {@code null} when unknown (treated as an event)
	 * @return whether the gate applies
	 */
	public boolean appliesTo(@Nullable Trigger cause) {
		return this.appliesTo.contains((cause != null) ? cause : Trigger.EVENT);
	}

	/**
	 * Take a token for one reconcile if its wait would be within the max wait; otherwise
	 * take nothing, so that a refused key leaves no debt behind however many workers ask
	 * at once. The caller either {@link #admit(Pass) admits} the pass or
	 * {@link #giveBack(Pass) gives it back}, exactly once.
	 * @return the pass
	 */
	public Pass reserve() {
		synchronized (this.outstanding) {
			// reserved under the same lock that orders the outstanding passes, so that
			// their order is the bucket's
			BucketReservation reservation = (this.maxWait != null) ? this.bucket.reserve(this.maxWait)
					: this.bucket.reserve();
			Pass pass = new Pass(reservation);
			if (reservation.isGranted() && reservation.delayNanos() > 0) {
				this.outstanding.addLast(pass);
			}
			return pass;
		}
	}

	/**
	 * Return whether a worker should wait out the given delay rather than wait in the
	 * queue.
	 * @param delayNanos the reservation's delay
	 * @return {@code true} if the delay is within the max wait
	 */
	public boolean withinMaxWait(long delayNanos) {
		return this.maxWait == null || delayNanos <= this.maxWaitNanos;
	}

	/**
	 * Record that a reconcile passed the gate with its pass.
	 * @param pass the pass
	 */
	public void admit(Pass pass) {
		this.admitted.increment();
		resolve(pass, false);
	}

	/**
	 * Give back the token of a pass whose reconcile will not happen, for example because
	 * the controller stops while its worker waits at the gate.
	 * @param pass the pass
	 */
	public void giveBack(Pass pass) {
		resolve(pass, true);
	}

	private void resolve(Pass pass, boolean giveBack) {
		if (!pass.reservation.isGranted() || pass.reservation.delayNanos() <= 0) {
			return;
		}
		synchronized (this.outstanding) {
			pass.resolved = true;
			pass.givenBack = giveBack;
			// A token is returned in full only by the latest reservation: later ones were
			// priced as if it stayed taken. Give back from the newest end, so that
			// waiters interrupted together (by a stop) return all their tokens whatever
			// order they wake in.
			while (!this.outstanding.isEmpty() && this.outstanding.peekLast().resolved) {
				Pass last = this.outstanding.removeLast();
				if (last.givenBack) {
					last.reservation.cancel();
				}
			}
		}
	}

	/**
	 * Return whether the gate lets every reconcile through at once and applies to every
	 * cause, so that a worker needs neither the key's cause nor a reservation to pass it.
	 * @return whether passing is free
	 */
	public boolean isOpen() {
		return this.bucket.isUnlimited() && this.appliesTo.size() == ALL_CAUSES;
	}

	/**
	 * Record that a reconcile passed the gate without a reservation.
	 */
	public void admit() {
		this.admitted.increment();
	}

	/**
	 * Return how many reconciles passed the gate so far, in every cluster; keys whose
	 * cause the policy exempts do not pass it.
	 * @return the admissions
	 */
	public long admitted() {
		long admitted = this.admitted.sum();
		for (ManagerGate member : this.members.values()) {
			admitted += member.admitted();
		}
		return admitted;
	}

	public TokenBucketRateLimiter<?> bucket() {
		return this.bucket;
	}

	public Set<Trigger> appliesTo() {
		return EnumSet.copyOf(this.appliesTo.isEmpty() ? EnumSet.noneOf(Trigger.class) : this.appliesTo);
	}

	public @Nullable Duration maxWait() {
		return this.maxWait;
	}

	/**
	 * Whether the clusters of a fleet share the manager bucket.
	 */
	public enum AcrossClusters {

		/**
		 * One bucket for every reconcile of every cluster: one budget, whatever asked.
		 */
		SHARED,

		/**
		 * The local cluster and each member cluster have a bucket of the same rate each.
		 */
		SPLIT

	}

	/**
	 * A worker's claim on the gate for one reconcile.
	 */
	public static final class Pass {

		private final BucketReservation reservation;

		// guarded by the gate's outstanding deque
		private boolean resolved;

		private boolean givenBack;

		Pass(BucketReservation reservation) {
			this.reservation = reservation;
		}

		/**
		 * Return whether the wait is within the gate's max wait, so the worker may wait
		 * it out.
		 * @return whether a token was taken
		 */
		public boolean isGranted() {
			return this.reservation.isGranted();
		}

		/**
		 * Return how long to wait before the reconcile, or the wait that was refused.
		 * @return the delay in nanoseconds
		 */
		public long delayNanos() {
			return this.reservation.delayNanos();
		}

	}

}
