package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Builds fresh limiters from {@link RateLimiterState} descriptions, for example to
 * preview a configured limiter in the {@link StormSimulator} on a virtual clock without
 * touching the live limiter's state.
 */
public final class RateLimiterStates {

	private RateLimiterStates() {
	}

	/**
	 * Build a new limiter with the configuration a state describes, on the given ticker.
	 * @param <T> the type of item
	 * @param state the description of a built-in limiter
	 * @param ticker the ticker for token buckets
	 * @return a new limiter with no history
	 * @throws IllegalArgumentException if the state describes a limiter that cannot be
	 * rebuilt, such as a user-written or client-java limiter
	 */
	@SuppressWarnings("unchecked")
	public static <T> RateLimiter<T> rebuild(RateLimiterState state, Ticker ticker) {
		return switch (state.type()) {
			case "exponential" -> RateLimiters.exponential(duration(state, "baseDelay"), duration(state, "maxDelay"));
			case "fast-slow" -> RateLimiters.fastSlow(duration(state, "fastDelay"), duration(state, "slowDelay"),
					number(state, "maxFastAttempts").intValue());
			case "bucket" ->
				RateLimiters.bucket(qps(state.config().get("qps")), number(state, "burst").intValue(), ticker);
			case "max-of" -> {
				List<RateLimiter<T>> children = state.children()
					.stream()
					.map((child) -> RateLimiterStates.<T>rebuild(child, ticker))
					.toList();
				yield RateLimiters.maxOf(children.toArray(RateLimiter[]::new));
			}
			case "max-wait" ->
				RateLimiters.maxWait(rebuild(state.children().get(0), ticker), duration(state, "maxWait"));
			case "none" -> RateLimiters.none();
			default -> throw new IllegalArgumentException("A limiter of type '" + state.type()
					+ "' cannot be rebuilt from its description; only built-in limiters can");
		};
	}

	private static Duration duration(RateLimiterState state, String key) {
		return Duration.parse(String.valueOf(state.config().get(key)));
	}

	private static Number number(RateLimiterState state, String key) {
		return Objects.requireNonNull((Number) state.config().get(key), key);
	}

	private static double qps(@Nullable Object value) {
		if (value instanceof Number number) {
			return number.doubleValue();
		}
		return "+Inf".equals(value) ? Double.POSITIVE_INFINITY : Double.parseDouble(String.valueOf(value));
	}

}
