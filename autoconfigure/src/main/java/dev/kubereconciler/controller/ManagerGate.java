package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.BucketReservation;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

/**
 * The manager-level token bucket that every controller's workers pass before they reconcile.
 *
 * <p>A worker takes a reservation and waits out its delay on the worker thread, so the wait is
 * limiter delay (source {@code manager}), not queue time, and the key never goes through the
 * queue again. Reservations are granted in order, so waiting is first come, first served across
 * controllers. A policy says which causes of an add pass through the gate; by default all of
 * them do.
 */
public final class ManagerGate {

	private final TokenBucketRateLimiter<?> bucket;

	private final Set<AddCause> appliesTo;

	private final Duration maxWait;

	private final LongAdder admitted = new LongAdder();

	/**
	 * Create a gate.
	 * @param bucket the shared bucket
	 * @param appliesTo the causes that pass through the gate
	 * @param maxWait the longest a worker waits at the gate, or {@code null} for no limit; a
	 * key that would wait longer gives its token back and waits in the queue instead, so a
	 * saturated gate does not pin workers
	 */
	public ManagerGate(TokenBucketRateLimiter<?> bucket, Set<AddCause> appliesTo, Duration maxWait) {
		this.bucket = Objects.requireNonNull(bucket, "bucket must not be null");
		this.appliesTo = appliesTo.isEmpty() ? EnumSet.noneOf(AddCause.class) : EnumSet.copyOf(appliesTo);
		if (maxWait != null && maxWait.isNegative()) {
			throw new IllegalArgumentException("maxWait must not be negative, was " + maxWait);
		}
		this.maxWait = maxWait;
	}

	/**
	 * Return a gate that never delays, but still counts admissions.
	 * @return an unlimited gate
	 */
	public static ManagerGate unlimited() {
		return new ManagerGate(RateLimiters.bucket(Double.POSITIVE_INFINITY, 1), EnumSet.allOf(AddCause.class), null);
	}

	/**
	 * Return whether keys added for the given cause pass through this gate.
	 * @param cause the cause, {@code null} when unknown (treated as an event)
	 * @return whether the gate applies
	 */
	public boolean appliesTo(AddCause cause) {
		return this.appliesTo.contains((cause != null) ? cause : AddCause.EVENT);
	}

	/**
	 * Take a reservation for one reconcile.
	 * @return the reservation
	 */
	public BucketReservation reserve() {
		return this.bucket.reserve();
	}

	/**
	 * Return whether a worker should wait out the given delay rather than give the token back.
	 * @param delayNanos the reservation's delay
	 * @return {@code true} if the delay is within the max wait
	 */
	public boolean withinMaxWait(long delayNanos) {
		return this.maxWait == null || delayNanos <= this.maxWait.toNanos();
	}

	/**
	 * Return whether the gate lets every reconcile through at once and applies to every
	 * cause, so that a worker needs neither the key's cause nor a reservation to pass it.
	 * @return whether passing is free
	 */
	boolean isOpen() {
		return this.bucket.isUnlimited() && this.appliesTo.size() == AddCause.values().length;
	}

	/**
	 * Record that a reconcile passed the gate.
	 */
	void admit() {
		this.admitted.increment();
	}

	/**
	 * Return how many reconciles passed the gate so far; keys whose cause the policy exempts
	 * do not pass it.
	 * @return the admissions
	 */
	public long admitted() {
		return this.admitted.sum();
	}

	public TokenBucketRateLimiter<?> bucket() {
		return this.bucket;
	}

	public Set<AddCause> appliesTo() {
		return EnumSet.copyOf(this.appliesTo.isEmpty() ? EnumSet.noneOf(AddCause.class) : this.appliesTo);
	}

	public Duration maxWait() {
		return this.maxWait;
	}

}
