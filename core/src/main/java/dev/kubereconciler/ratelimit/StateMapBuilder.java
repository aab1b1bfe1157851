package dev.kubereconciler.ratelimit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the maps of a {@link RateLimiterState} in a stable order, so that JSON
 * renderings list configuration the way it was declared.
 */
final class StateMapBuilder {

	private StateMapBuilder() {
	}

	static Map<String, Object> of(Object... keysAndValues) {
		Map<String, Object> map = new LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			map.put((String) keysAndValues[i], keysAndValues[i + 1]);
		}
		return map;
	}

}
