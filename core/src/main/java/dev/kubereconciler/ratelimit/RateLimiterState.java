package dev.kubereconciler.ratelimit;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.time.Ticker;

/**
 * An immutable description of a {@link RateLimiter}: its type, configuration, live state
 * and, for composites, its children. Serializes cleanly to JSON.
 *
 * @param type the limiter type, for example {@code exponential} or {@code bucket}
 * @param config the configuration, such as delays (as ISO-8601 strings), qps and burst
 * @param live the live state, such as tokens and tracked items
 * @param children the states of child limiters, empty for leaf limiters
 */
public record RateLimiterState(String type, Map<String, Object> config, Map<String, Object> live,
		List<RateLimiterState> children) {

	public RateLimiterState {
		config = Collections.unmodifiableMap(new LinkedHashMap<>(config));
		live = Collections.unmodifiableMap(new LinkedHashMap<>(live));
		children = List.copyOf(children);
	}

	/**
	 * Return a state with only a type.
	 * @param type the limiter type
	 * @return the state
	 */
	public static RateLimiterState of(String type) {
		return new RateLimiterState(type, Map.of(), Map.of(), List.of());
	}

	/**
	 * Build a new limiter with the configuration this state describes, on the given
	 * ticker, for example to preview a configured limiter in the {@link StormSimulator}
	 * on a virtual clock without touching the live limiter's state.
	 * @param <T> the type of item
	 * @param ticker the ticker for token buckets
	 * @return a new limiter with no history
	 * @throws IllegalArgumentException if the state describes a limiter that cannot be
	 * rebuilt, such as a user-written or client-java limiter
	 */
	@SuppressWarnings("unchecked")
	public <T> RateLimiter<T> rebuild(Ticker ticker) {
		return switch (this.type) {
			case "exponential" -> RateLimiters.exponential(duration("baseDelay"), duration("maxDelay"));
			case "fast-slow" -> RateLimiters.fastSlow(duration("fastDelay"), duration("slowDelay"),
					number("maxFastAttempts").intValue());
			case "bucket" -> RateLimiters.bucket(qps(this.config.get("qps")), number("burst").intValue(), ticker);
			case "max-of" -> {
				List<RateLimiter<T>> children = this.children.stream()
					.map((child) -> child.<T>rebuild(ticker))
					.toList();
				yield RateLimiters.maxOf(children.toArray(RateLimiter[]::new));
			}
			case "max-wait" -> RateLimiters.maxWait(this.children.get(0).rebuild(ticker), duration("maxWait"));
			case "none" -> RateLimiters.none();
			default -> throw new IllegalArgumentException("A limiter of type '" + this.type
					+ "' cannot be rebuilt from its description; only built-in limiters can");
		};
	}

	private Number number(String key) {
		return (Number) Objects.requireNonNull(this.config.get(key), key);
	}

	private Duration duration(String key) {
		return Duration.parse(String.valueOf(this.config.get(key)));
	}

	private static double qps(@Nullable Object value) {
		if (value instanceof Number number) {
			return number.doubleValue();
		}
		return "+Inf".equals(value) ? Double.POSITIVE_INFINITY : Double.parseDouble(String.valueOf(value));
	}

}
