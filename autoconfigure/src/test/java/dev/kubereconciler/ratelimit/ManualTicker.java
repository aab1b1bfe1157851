package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Ticker} that only moves when a test advances it.
 */
public final class ManualTicker implements Ticker {

	private final AtomicLong nanos;

	public ManualTicker() {
		this(0);
	}

	public ManualTicker(long startNanos) {
		this.nanos = new AtomicLong(startNanos);
	}

	@Override
	public long read() {
		return this.nanos.get();
	}

	/**
	 * Move time forward.
	 * @param duration how far to move, not negative
	 */
	public void advance(Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("A ticker cannot go back in time: " + duration);
		}
		this.nanos.addAndGet(duration.toNanos());
	}

}
