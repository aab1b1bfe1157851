package dev.kubereconciler.ratelimit;

/**
 * The arithmetic of {@link TokenBucketRateLimiter}'s state at one rate and burst: the
 * period of one token and the span of a full bucket in nanoseconds, and what taking a
 * token does to the instant at which the bucket holds zero tokens.
 */
final class BucketRate {

	static final double NANOS_PER_SECOND = 1_000_000_000d;

	// the farthest the state may get from now, far from overflow and beyond any real wait
	static final long MAX_SPAN = Long.MAX_VALUE / 4;

	final double qps;

	final int burst;

	final boolean unlimited;

	private final long period;

	private final long fullSpan;

	BucketRate(double qps, int burst) {
		this.qps = qps;
		this.burst = burst;
		this.unlimited = qps == Double.POSITIVE_INFINITY;
		this.period = this.unlimited ? 1 : Math.max(1, Math.min(MAX_SPAN, Math.round(NANOS_PER_SECOND / qps)));
		this.fullSpan = (burst > MAX_SPAN / this.period) ? MAX_SPAN : burst * this.period;
	}

	// the zero instant after taking one token at now: a full bucket has been full
	// since now - fullSpan, and a token is one period
	long take(long zeroAt, long now) {
		long full = now - this.fullSpan;
		long next = ((zeroAt - full > 0) ? zeroAt : full) + this.period;
		return (next - now > MAX_SPAN) ? now + MAX_SPAN : next;
	}

	double tokensAt(long zeroAt, long now) {
		if (this.unlimited) {
			return this.burst;
		}
		return Math.min((double) (now - zeroAt) / this.period, this.burst);
	}

	long zeroAtFor(long now, double tokens) {
		if (this.unlimited) {
			return now;
		}
		double span = tokens * this.period;
		return now - (long) Math.max(-MAX_SPAN, Math.min(MAX_SPAN, Math.rint(span)));
	}

	static double tokensFor(long nanos, double qps) {
		// Multiplying first keeps whole results exact, such as 100 ms at 10 qps.
		return nanos * qps / NANOS_PER_SECOND;
	}

}
