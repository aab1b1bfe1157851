package dev.kubereconciler.ratelimit;

import java.time.Duration;

/**
 * Conversions between {@link Duration} and saturated nanoseconds.
 */
final class DurationNanos {

	private DurationNanos() {
	}

	/**
	 * Return the duration in nanoseconds, saturated at {@link Long#MAX_VALUE} (about 292
	 * years) instead of throwing.
	 * @param duration a non-negative duration
	 * @return the nanoseconds
	 */
	static long toNanos(Duration duration) {
		if (duration.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) {
			return Long.MAX_VALUE;
		}
		return duration.toNanos();
	}

	/**
	 * Return the duration for a number of nanoseconds, sharing {@link Duration#ZERO} so
	 * that the common zero-delay answer allocates nothing.
	 * @param nanos the nanoseconds, not negative
	 * @return the duration
	 */
	static Duration of(long nanos) {
		return (nanos == 0) ? Duration.ZERO : Duration.ofNanos(nanos);
	}

}
