package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Adapts a client-java-extended limiter. It is the only class here that refers to that
 * optional library, so that everything else loads without it.
 *
 * @param <T> the type of item
 */
final class ClientJavaRateLimiterAdapter<T> implements RateLimiter<T> {

	private final io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<T> delegate;

	ClientJavaRateLimiterAdapter(io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<T> delegate) {
		if (delegate == null) {
			throw new IllegalArgumentException("limiter must not be null");
		}
		this.delegate = delegate;
	}

	@Override
	public Duration when(T item) {
		// client-java's exponential limiter overflows into negative delays; a negative
		// delay means "now" in a work queue, so say so instead of passing it on.
		Duration delay = this.delegate.when(item);
		return (delay == null || delay.isNegative()) ? Duration.ZERO : delay;
	}

	/**
	 * A client-java bucket keeps no per-item state and is shared as it is; any other
	 * client-java limiter may keep per-item failures behind fields this adapter cannot
	 * copy.
	 * @throws IllegalStateException unless the delegate is a client-java bucket
	 */
	@Override
	public RateLimiter<T> forScope(String scope) {
		if (this.delegate instanceof io.kubernetes.client.extended.workqueue.ratelimiter.BucketRateLimiter<?>) {
			return this;
		}
		throw new IllegalStateException(
				"the client-java limiter " + this.delegate.getClass().getName() + " keeps per-item state");
	}

	@Override
	public void forget(T item) {
		this.delegate.forget(item);
	}

	@Override
	public int numRequeues(T item) {
		return this.delegate.numRequeues(item);
	}

	@Override
	public RateLimiterState state() {
		return new RateLimiterState("client-java", Map.of("class", this.delegate.getClass().getName()), Map.of(),
				List.of());
	}

}
