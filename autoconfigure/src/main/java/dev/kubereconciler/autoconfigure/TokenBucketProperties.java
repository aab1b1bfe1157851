package dev.kubereconciler.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The rate and size of a token bucket as properties, for a controller's rate limiter and
 * for the manager bucket alike: the property names stay those of the group that extends
 * this class.
 */
public abstract class TokenBucketProperties {

	/**
	 * Token refill rate in tokens per second. For a rate limiter of type bucket or
	 * default it defaults to 10; for the manager bucket, unset means unlimited.
	 */
	private @Nullable Double qps;

	/**
	 * Bucket size: how many may pass at once without delay. For a rate limiter of type
	 * bucket or default it defaults to 100; for the manager bucket, to qps rounded up (at
	 * least 1).
	 */
	private @Nullable Integer burst;

	public @Nullable Double getQps() {
		return this.qps;
	}

	public void setQps(@Nullable Double qps) {
		this.qps = qps;
	}

	public @Nullable Integer getBurst() {
		return this.burst;
	}

	public void setBurst(@Nullable Integer burst) {
		this.burst = burst;
	}

}
