package dev.kubereconciler.actuate;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * Checks and applies the arguments of the {@code controllers} endpoint's write
 * operations. Every argument is checked before anything changes, so a bad request leaves
 * the state as it was.
 */
final class WriteArguments {

	private WriteArguments() {
	}

	/**
	 * Check that an action is known and that it was given only the arguments it takes.
	 */
	static void check(String action, @Nullable String key, @Nullable Double qps, @Nullable Integer burst) {
		switch (action) {
			case "pause", "resume", "reconcile-all" -> {
				if (key != null || qps != null || burst != null) {
					throw new InvalidEndpointRequestException(action + " takes no arguments", "Unexpected argument");
				}
			}
			case "forget" -> {
				if (qps != null || burst != null) {
					throw new InvalidEndpointRequestException("forget takes only 'key'", "Unexpected argument");
				}
			}
			case "retune" -> {
				if (key != null) {
					throw new InvalidEndpointRequestException("retune takes only 'qps' and 'burst'",
							"Unexpected argument");
				}
			}
			case "namespaces" -> {
				if (key != null || qps != null || burst != null) {
					throw new InvalidEndpointRequestException("namespaces takes only 'namespaces'",
							"Unexpected argument");
				}
			}
			default -> throw new InvalidEndpointRequestException(
					"Unknown action '" + action + "'; use pause, resume, forget, retune, reconcile-all or namespaces",
					"Unknown action");
		}
	}

	static void checkNamespaces(String action, @Nullable String namespaces) {
		if (action.equals("namespaces") && namespaces == null) {
			throw new InvalidEndpointRequestException(
					"namespaces needs 'namespaces', such as \"team-a,team-b\", or \"\" for all namespaces",
					"Missing namespaces");
		}
		if (!action.equals("namespaces") && namespaces != null) {
			throw new InvalidEndpointRequestException(action + " takes no 'namespaces'", "Unexpected argument");
		}
	}

	static Set<String> parseNamespaces(@Nullable String namespaces) {
		Set<String> parsed = new LinkedHashSet<>();
		for (String namespace : (namespaces != null) ? namespaces.split(",") : new String[0]) {
			if (!namespace.isBlank()) {
				parsed.add(namespace.trim());
			}
		}
		return parsed;
	}

	static Request parseKey(@Nullable String key) {
		if (key == null || key.isBlank()) {
			throw new InvalidEndpointRequestException("forget needs a 'key' such as namespace/name", "Missing key");
		}
		Request request = Request.fromKey(key);
		if (request.name().isEmpty() || request.name().contains("/")
				|| (key.contains("/") && request.namespace().isEmpty())) {
			throw new InvalidEndpointRequestException(
					"'" + key + "' is not a key; write namespace/name, or name for a cluster-scoped object",
					"Invalid key");
		}
		return request;
	}

	static void apply(TokenBucketRateLimiter<?> bucket, @Nullable Double qps, @Nullable Integer burst) {
		if (qps == null && burst == null) {
			throw new InvalidEndpointRequestException("retune needs 'qps', 'burst' or both", "Nothing to retune");
		}
		if (qps != null && !(qps > 0)) {
			throw new InvalidEndpointRequestException("qps must be greater than 0, was " + qps, "Invalid qps");
		}
		if (burst != null && burst < 1) {
			throw new InvalidEndpointRequestException("burst must be at least 1, was " + burst, "Invalid burst");
		}
		if (qps != null) {
			bucket.setRate(qps);
		}
		if (burst != null) {
			bucket.setBurst(burst);
		}
	}

	static TokenBucketRateLimiter<?> bucketOf(String controller, RateLimiter<?> limiter) {
		List<TokenBucketRateLimiter<?>> buckets = RateLimiters.buckets(limiter);
		if (buckets.size() != 1) {
			throw new InvalidEndpointRequestException("The limiter of controller '" + controller + "' has "
					+ buckets.size() + " token buckets; retune needs exactly one", "No single bucket to retune");
		}
		return buckets.get(0);
	}

}
