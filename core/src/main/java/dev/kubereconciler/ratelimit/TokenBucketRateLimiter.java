package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.kubereconciler.time.Ticker;

/**
 * A token bucket shared by all items, with the semantics of Go's {@code rate.Limiter} and
 * {@code Reserve()}: client-go's {@code BucketRateLimiter}, 10 qps and a burst of 100 in
 * the controller default.
 *
 * <p>
 * The bucket starts full ({@code burst} tokens) and refills continuously at {@code qps}
 * tokens per second, up to {@code burst}. Every {@link #when} takes one token at once,
 * even into debt (negative tokens), and returns the time until that token will have been
 * refilled: {@code max(0, -tokens / qps)}. So at 10 qps with a burst of 100, the first
 * 100 calls at one instant wait 0, the 101st waits exactly 100 ms and the 102nd 200 ms.
 * The debt is unbounded unless the limiter is wrapped in {@link RateLimiters#maxWait}. A
 * qps of {@link Double#POSITIVE_INFINITY} (Go's {@code rate.Inf}) never delays and always
 * reports a full bucket.
 *
 * <p>
 * {@link #forget} does nothing and {@link #numRequeues} is always 0. Time comes from the
 * injected {@link Ticker}; all methods are thread-safe.
 *
 * <p>
 * The state is one instant, kept in an {@link AtomicLong} (GCRA): the ticker reading at
 * which the bucket holds zero tokens, so that the tokens at {@code now} are
 * {@code min(burst, (now - zeroAt) / period)}. Taking a token moves that instant one
 * period later with a compare-and-set, so concurrent callers never block one another. The
 * period of one token, {@code 1 s / qps}, is rounded to a whole nanosecond (at least one,
 * so rates above 10^9 per second act as 10^9). Changes of rate or burst and
 * {@link BucketReservation#cancel()} are rare: they take a lock among themselves and hold
 * the state for the few instructions of their update.
 *
 * @param <T> the type of item
 */
public final class TokenBucketRateLimiter<T> implements ReservingRateLimiter<T> {

	// marks the state while a rate, burst or cancel update holds it
	private static final long HELD = Long.MIN_VALUE;

	private final Ticker ticker;

	// serialises the rare updates; the hot path never takes it unless it meets one
	private final Object lock = new Object();

	// the ticker reading at which the bucket holds zero tokens; readings are only ever
	// compared through their difference, so a ticker may start anywhere
	private final AtomicLong zeroAt;

	// replaced only while the state is held
	private volatile BucketRate rate;

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
		this.rate = new BucketRate(qps, burst);
		long now = ticker.read();
		this.zeroAt = new AtomicLong(this.rate.zeroAtFor(now, burst));
	}

	@Override
	public long reserveNanos(T item, long maxWaitNanos) {
		long now = this.ticker.read();
		while (true) {
			long zeroAt = this.zeroAt.get();
			if (zeroAt == HELD) {
				awaitUpdate();
				continue;
			}
			BucketRate rate = this.rate;
			if (rate.unlimited) {
				return 0;
			}
			long next = rate.take(zeroAt, now);
			long delay = Math.max(0, next - now);
			if (delay > maxWaitNanos || this.zeroAt.compareAndSet(zeroAt, next)) {
				return delay;
			}
		}
	}

	@Override
	public Decision decide(T item, long maxWaitNanos) {
		return new Decision(DurationNanos.of(reserveNanos(item, maxWaitNanos)), DelaySource.BUCKET);
	}

	/**
	 * Take one token now and return a reservation that says how long to wait for it and
	 * can give it back.
	 * @return the reservation, always granted
	 */
	public BucketReservation reserve() {
		return reserve(Long.MAX_VALUE);
	}

	/**
	 * Take one token now if the wait for it would be at most {@code maxWait}; otherwise
	 * take nothing and return a reservation that is not
	 * {@link BucketReservation#isGranted() granted}.
	 * @param maxWait the longest acceptable wait, not negative
	 * @return the reservation
	 */
	public BucketReservation reserve(Duration maxWait) {
		if (maxWait == null || maxWait.isNegative()) {
			throw new IllegalArgumentException("maxWait must not be negative but was " + maxWait);
		}
		return reserve(DurationNanos.toNanos(maxWait));
	}

	private BucketReservation reserve(long maxWaitNanos) {
		long now = this.ticker.read();
		while (true) {
			long zeroAt = this.zeroAt.get();
			if (zeroAt == HELD) {
				awaitUpdate();
				continue;
			}
			BucketRate rate = this.rate;
			if (rate.unlimited) {
				// an unlimited bucket takes no token, so there is nothing to give back
				return new BucketReservation(this, true, 0, now, rate.qps, 0);
			}
			long next = rate.take(zeroAt, now);
			long delay = Math.max(0, next - now);
			if (delay > maxWaitNanos) {
				return new BucketReservation(this, false, delay, now + delay, rate.qps, 0);
			}
			if (this.zeroAt.compareAndSet(zeroAt, next)) {
				return new BucketReservation(this, true, delay, now + delay, rate.qps, 1);
			}
		}
	}

	void cancel(BucketReservation reservation) {
		synchronized (this.lock) {
			long zeroAt = hold();
			try {
				long now = this.ticker.read();
				BucketRate rate = this.rate;
				if (reservation.reservedTokens == 0 || reservation.returned || rate.unlimited
						|| reservation.timeToAct - now < 0) {
					return;
				}
				// The latest time-to-act of any reservation still standing: the zero
				// instant while in debt, otherwise no later than now.
				long lastEvent = (zeroAt - now > 0) ? zeroAt : now;
				// Tokens reserved after this one were priced as if this one stayed taken;
				// they cannot be handed out again, so only the remainder comes back. Go
				// can give back more than was taken when the rate changed in between; we
				// never do.
				double restore = reservation.reservedTokens
						- Math.max(0, BucketRate.tokensFor(lastEvent - reservation.timeToAct, reservation.qps));
				if (restore <= 0) {
					return;
				}
				zeroAt = rate.zeroAtFor(now, Math.min(rate.tokensAt(zeroAt, now) + restore, rate.burst));
				reservation.returned = true;
			}
			finally {
				this.zeroAt.set(zeroAt);
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
			return this.rate.tokensAt(this.zeroAt.get(), this.ticker.read());
		}
	}

	/**
	 * Return the refill rate.
	 * @return tokens per second, {@link Double#POSITIVE_INFINITY} for no limit
	 */
	public double qps() {
		return this.rate.qps;
	}

	/**
	 * Return the capacity.
	 * @return the burst in tokens
	 */
	public int burst() {
		return this.rate.burst;
	}

	/**
	 * Change the refill rate from now on; tokens refilled so far are kept, as Go's
	 * {@code SetLimit} does.
	 * @param qps tokens per second, positive or {@link Double#POSITIVE_INFINITY}
	 */
	public void setRate(double qps) {
		validateQps(qps);
		synchronized (this.lock) {
			update(new BucketRate(qps, this.rate.burst), Integer.MAX_VALUE);
		}
	}

	/**
	 * Change the capacity from now on, as Go's {@code SetBurst} does; tokens above the
	 * new capacity are dropped.
	 * @param burst the capacity in tokens, at least 1
	 */
	public void setBurst(int burst) {
		validateBurst(burst);
		synchronized (this.lock) {
			update(new BucketRate(this.rate.qps, burst), burst);
		}
	}

	// keeps the tokens of now, at most cap, under the new rate; called with the lock held
	private void update(BucketRate next, int cap) {
		long zeroAt = hold();
		try {
			long now = this.ticker.read();
			double tokens = Math.min(this.rate.tokensAt(zeroAt, now), cap);
			this.rate = next;
			zeroAt = next.zeroAtFor(now, tokens);
		}
		finally {
			this.zeroAt.set(zeroAt);
		}
	}

	@Override
	public RateLimiterState state() {
		synchronized (this.lock) {
			BucketRate rate = this.rate;
			// JSON has no infinity, so an unlimited rate is rendered as Prometheus does.
			Object qps = rate.unlimited ? "+Inf" : rate.qps;
			return new RateLimiterState("bucket", StateMapBuilder.of("qps", qps, "burst", rate.burst),
					StateMapBuilder.of("tokens", rate.tokensAt(this.zeroAt.get(), this.ticker.read())), List.of());
		}
	}

	/**
	 * Return a new, full bucket of this one's current rate and burst on the same ticker.
	 * @param <U> the type of item the copy limits
	 * @return the copy
	 */
	public <U> TokenBucketRateLimiter<U> copy() {
		BucketRate rate = this.rate;
		return new TokenBucketRateLimiter<>(rate.qps, rate.burst, this.ticker);
	}

	/**
	 * Return whether this bucket never delays: its rate is
	 * {@link Double#POSITIVE_INFINITY}. Reads no lock, so that callers on a hot path can
	 * skip the bucket altogether.
	 * @return whether the bucket is unlimited
	 */
	public boolean isUnlimited() {
		return this.rate.unlimited;
	}

	// takes the state for an update; called with the lock held, so only
	// reservations compete
	private long hold() {
		while (true) {
			long zeroAt = this.zeroAt.get();
			if (this.zeroAt.compareAndSet(zeroAt, HELD)) {
				return zeroAt;
			}
		}
	}

	// an update holds the lock for as long as it holds the state
	private void awaitUpdate() {
		synchronized (this.lock) {
			Thread.onSpinWait();
		}
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
