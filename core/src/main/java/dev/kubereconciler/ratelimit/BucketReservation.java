package dev.kubereconciler.ratelimit;

import java.time.Duration;

import dev.kubereconciler.time.Ticker;

/**
 * One token taken from a {@link TokenBucketRateLimiter}, with Go's
 * {@code rate.Reservation} semantics: it says how long to wait before acting and can give
 * the token back with {@link #cancel()}.
 */
public final class BucketReservation {

	private final TokenBucketRateLimiter<?> limiter;

	private final boolean granted;

	private final long delayNanos;

	final long timeToAct;

	final double qps;

	final int reservedTokens;

	// guarded by the limiter's lock
	boolean returned;

	BucketReservation(TokenBucketRateLimiter<?> limiter, boolean granted, long delayNanos, long timeToAct, double qps,
			int reservedTokens) {
		this.limiter = limiter;
		this.granted = granted;
		this.delayNanos = delayNanos;
		this.timeToAct = timeToAct;
		this.qps = qps;
		this.reservedTokens = reservedTokens;
	}

	/**
	 * Return whether a token was taken; only a reservation with a horizon can be refused.
	 * @return whether the reservation was granted
	 */
	public boolean isGranted() {
		return this.granted;
	}

	/**
	 * Return how long to wait, from the moment of reservation, before acting.
	 * @return the delay in nanoseconds; for a refused reservation, the wait it would have
	 * needed
	 */
	public long delayNanos() {
		return this.delayNanos;
	}

	/**
	 * Return when to act, as a reading of the limiter's {@link Ticker}, so that a caller
	 * that reserved ahead of time can work out the remaining wait.
	 * @return the time to act in ticker nanoseconds
	 */
	public long timeToAct() {
		return this.timeToAct;
	}

	/**
	 * Return how long to wait, from the moment of reservation, before acting.
	 * @return the delay; for a refused reservation, the wait it would have needed
	 */
	public Duration delay() {
		return DurationNanos.of(this.delayNanos);
	}

	/**
	 * Give the token back because the action will not happen, like Go's
	 * {@code Reservation.Cancel}: nothing happens once the time to act has passed, and
	 * tokens reserved after this one stay taken. Cancelling again has no further effect.
	 */
	public void cancel() {
		if (this.granted) {
			this.limiter.cancel(this);
		}
	}

}
