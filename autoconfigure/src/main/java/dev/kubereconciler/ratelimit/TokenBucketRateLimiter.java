package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;

/**
 * A token bucket shared by all items, with the semantics of Go's {@code rate.Limiter} and
 * {@code Reserve()}: client-go's {@code BucketRateLimiter}, 10 qps and a burst of 100 in the
 * controller default.
 *
 * <p>The bucket starts full ({@code burst} tokens) and refills continuously at {@code qps}
 * tokens per second, up to {@code burst}. Every {@link #when} takes one token at once, even
 * into debt (negative tokens), and returns the time until that token will have been refilled:
 * {@code max(0, -tokens / qps)}. So at 10 qps with a burst of 100, the first 100 calls at one
 * instant wait 0, the 101st waits exactly 100 ms and the 102nd 200 ms. The debt is unbounded
 * unless the limiter is wrapped in {@link RateLimiters#maxWait}. A qps of
 * {@link Double#POSITIVE_INFINITY} (Go's {@code rate.Inf}) never delays and always reports a
 * full bucket.
 *
 * <p>{@link #forget} does nothing and {@link #numRequeues} is always 0. Time comes from the
 * injected {@link Ticker}; all methods are thread-safe.
 *
 * @param <T> the type of item
 */
public final class TokenBucketRateLimiter<T> implements ReservingRateLimiter<T> {

	private static final double NANOS_PER_SECOND = 1_000_000_000d;

	private final Ticker ticker;

	private final Object lock = new Object();

	// The fields below are guarded by the lock. Instants are ticker readings and are only
	// ever compared through their difference, so a ticker may start anywhere.

	private double qps;

	// mirrors qps == +Inf, readable without the lock
	private volatile boolean unlimited;

	private int burst;

	private double tokens;

	// when tokens was last brought up to date
	private long last;

	// the latest time-to-act of a reservation, past or future, which cancel() needs in order
	// to tell how many tokens were reserved after the one being given back
	private long lastEvent;

	/**
	 * Create a full bucket.
	 * @param qps the refill rate in tokens per second, positive or
	 * {@link Double#POSITIVE_INFINITY} for no limit
	 * @param burst the capacity in tokens, at least 1
	 * @param ticker the source of time
	 */
	public TokenBucketRateLimiter(double qps, int burst, Ticker ticker) {
		validateQps(qps);
		validateBurst(burst);
		if (ticker == null) {
			throw new IllegalArgumentException("ticker must not be null");
		}
		this.ticker = ticker;
		this.qps = qps;
		this.unlimited = qps == Double.POSITIVE_INFINITY;
		this.burst = burst;
		this.tokens = burst;
		this.last = ticker.read();
		this.lastEvent = this.last;
	}

	@Override
	public long reserveNanos(T item, long maxWaitNanos) {
		synchronized (this.lock) {
			return reserveLocked(this.ticker.read(), maxWaitNanos);
		}
	}

	@Override
	public Decision decide(T item, long maxWaitNanos) {
		return new Decision(Durations.of(reserveNanos(item, maxWaitNanos)), DelaySource.BUCKET);
	}

	/**
	 * Take one token now and return a reservation that says how long to wait for it and can
	 * give it back.
	 * @return the reservation, always granted
	 */
	public BucketReservation reserve() {
		return reserve(Long.MAX_VALUE);
	}

	/**
	 * Take one token now if the wait for it would be at most {@code maxWait}; otherwise take
	 * nothing and return a reservation that is not {@link BucketReservation#isGranted() granted}.
	 * @param maxWait the longest acceptable wait, not negative
	 * @return the reservation
	 */
	public BucketReservation reserve(Duration maxWait) {
		if (maxWait == null || maxWait.isNegative()) {
			throw new IllegalArgumentException("maxWait must not be negative but was " + maxWait);
		}
		return reserve(Durations.toNanos(maxWait));
	}

	private BucketReservation reserve(long maxWaitNanos) {
		synchronized (this.lock) {
			long now = this.ticker.read();
			long delay = reserveLocked(now, maxWaitNanos);
			boolean granted = delay <= maxWaitNanos;
			// An unlimited bucket takes no token, so there is nothing to give back.
			int reserved = (granted && !isUnlimited()) ? 1 : 0;
			return new BucketReservation(this, granted, delay, now + delay, this.qps, reserved);
		}
	}

	private long reserveLocked(long now, long maxWaitNanos) {
		if (isUnlimited()) {
			return 0;
		}
		double remaining = tokensAt(now) - 1;
		long delay = (remaining < 0) ? nanosFor(-remaining, this.qps) : 0;
		if (delay > maxWaitNanos) {
			return delay;
		}
		advanceTo(now, remaining);
		this.lastEvent = now + delay;
		return delay;
	}

	void cancel(BucketReservation reservation) {
		synchronized (this.lock) {
			long now = this.ticker.read();
			if (reservation.reservedTokens == 0 || reservation.returned || isUnlimited()
					|| reservation.timeToAct - now < 0) {
				return;
			}
			// Tokens reserved after this one were priced as if this one stayed taken; they
			// cannot be handed out again, so only the remainder comes back. Go can give back
			// more than was taken when the rate changed in between; we never do.
			double restore = reservation.reservedTokens
					- Math.max(0, tokensFor(this.lastEvent - reservation.timeToAct, reservation.qps));
			if (restore <= 0) {
				return;
			}
			advanceTo(now, Math.min(tokensAt(now) + restore, this.burst));
			reservation.returned = true;
			if (reservation.timeToAct == this.lastEvent) {
				long previousEvent = reservation.timeToAct - nanosFor(reservation.reservedTokens, reservation.qps);
				if (previousEvent - now >= 0) {
					this.lastEvent = previousEvent;
				}
			}
		}
	}

	@Override
	public void forget(T item) {
	}

	@Override
	public int numRequeues(T item) {
		return 0;
	}

	/**
	 * Return the tokens in the bucket now; negative when calls have run into debt.
	 * @return the current tokens, at most {@link #burst()}
	 */
	public double tokens() {
		synchronized (this.lock) {
			return tokensAt(this.ticker.read());
		}
	}

	/**
	 * Return the refill rate.
	 * @return tokens per second, {@link Double#POSITIVE_INFINITY} for no limit
	 */
	public double qps() {
		synchronized (this.lock) {
			return this.qps;
		}
	}

	/**
	 * Return the capacity.
	 * @return the burst in tokens
	 */
	public int burst() {
		synchronized (this.lock) {
			return this.burst;
		}
	}

	/**
	 * Change the refill rate from now on; tokens refilled so far are kept, as Go's
	 * {@code SetLimit} does.
	 * @param qps tokens per second, positive or {@link Double#POSITIVE_INFINITY}
	 */
	public void setRate(double qps) {
		validateQps(qps);
		synchronized (this.lock) {
			long now = this.ticker.read();
			advanceTo(now, tokensAt(now));
			this.qps = qps;
			this.unlimited = qps == Double.POSITIVE_INFINITY;
		}
	}

	/**
	 * Change the capacity from now on, as Go's {@code SetBurst} does; tokens above the new
	 * capacity are dropped.
	 * @param burst the capacity in tokens, at least 1
	 */
	public void setBurst(int burst) {
		validateBurst(burst);
		synchronized (this.lock) {
			long now = this.ticker.read();
			advanceTo(now, Math.min(tokensAt(now), burst));
			this.burst = burst;
		}
	}

	@Override
	public RateLimiterState state() {
		synchronized (this.lock) {
			// JSON has no infinity, so an unlimited rate is rendered as Prometheus does.
			Object qps = isUnlimited() ? "+Inf" : this.qps;
			return new RateLimiterState("bucket", StateMaps.of("qps", qps, "burst", this.burst),
					StateMaps.of("tokens", tokensAt(this.ticker.read())), List.of());
		}
	}

	/**
	 * Return whether this bucket never delays: its rate is {@link Double#POSITIVE_INFINITY}.
	 * Reads no lock, so that callers on a hot path can skip the bucket altogether.
	 * @return whether the bucket is unlimited
	 */
	public boolean isUnlimited() {
		return this.unlimited;
	}

	private double tokensAt(long now) {
		if (isUnlimited()) {
			return this.burst;
		}
		long elapsed = now - this.last;
		if (elapsed <= 0) {
			return this.tokens;
		}
		return Math.min(this.tokens + tokensFor(elapsed, this.qps), this.burst);
	}

	private void advanceTo(long now, double tokens) {
		if (now - this.last > 0) {
			this.last = now;
		}
		this.tokens = tokens;
	}

	private static double tokensFor(long nanos, double qps) {
		// Multiplying first keeps whole results exact, such as 100 ms at 10 qps.
		return nanos * qps / NANOS_PER_SECOND;
	}

	private static long nanosFor(double tokens, double qps) {
		double nanos = tokens * NANOS_PER_SECOND / qps;
		return (nanos >= Long.MAX_VALUE) ? Long.MAX_VALUE : (long) nanos;
	}

	private static void validateQps(double qps) {
		if (!(qps > 0)) {
			throw new IllegalArgumentException(
					"qps must be positive or Double.POSITIVE_INFINITY for no limit but was " + qps);
		}
	}

	private static void validateBurst(int burst) {
		if (burst < 1) {
			throw new IllegalArgumentException("burst must be at least 1 but was " + burst);
		}
	}

}
