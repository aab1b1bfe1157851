package dev.kubereconciler.ratelimit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

}
