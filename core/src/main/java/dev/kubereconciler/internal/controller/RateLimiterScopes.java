package dev.kubereconciler.internal.controller;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

import dev.kubereconciler.ratelimit.RateLimiter;

/**
 * Gives each scope, typically each controller, its own per-item history wherever one
 * limiter instance sits in the limiters of several scopes, at any depth: a bean used as a
 * {@code max-of} child by two controllers, or wrapped by a customizer for each of them.
 * Token buckets stay shared, which is what sharing a limiter is for.
 */
public final class RateLimiterScopes {

	private RateLimiterScopes() {
	}

	/**
	 * Return the limiters to use, one per scope and in the same order: a limiter whose
	 * tree shares no instance with another scope's is returned as it is, any other is
	 * replaced by its {@link RateLimiter#forScope(String) forScope} copy.
	 * @param <T> the type of item
	 * @param scopes the scope names, such as controller names
	 * @param limiters the limiter of each scope
	 * @return the limiters, scoped where they share an instance
	 * @throws IllegalStateException if a shared instance keeps per-item state and cannot
	 * be scoped, naming the scopes that share it
	 */
	public static <T> List<RateLimiter<T>> scopeShared(List<String> scopes, List<RateLimiter<T>> limiters) {
		if (scopes.size() != limiters.size()) {
			throw new IllegalArgumentException("one limiter is needed per scope");
		}
		Map<RateLimiter<?>, Set<String>> users = users(scopes, limiters);
		List<RateLimiter<T>> result = new ArrayList<>(limiters.size());
		for (int i = 0; i < limiters.size(); i++) {
			RateLimiter<T> limiter = limiters.get(i);
			result.add(isShared(limiter, users) ? scope(scopes.get(i), limiter, users) : limiter);
		}
		return result;
	}

	private static <T> RateLimiter<T> scope(String scope, RateLimiter<T> limiter,
			Map<RateLimiter<?>, Set<String>> users) {
		try {
			return limiter.forScope(scope);
		}
		catch (IllegalStateException ex) {
			Set<String> sharing = new LinkedHashSet<>();
			walk(limiter, (node) -> {
				Set<String> nodeUsers = Objects.requireNonNull(users.get(node));
				if (nodeUsers.size() > 1) {
					sharing.addAll(nodeUsers);
				}
			});
			throw new IllegalStateException("Controllers " + String.join(", ", quoted(sharing))
					+ " share one rate limiter instance, which would make them share per-item backoff, and it "
					+ "cannot be copied per controller: " + ex.getMessage() + ". Give each controller its own "
					+ "instance (for a bean, declare it @Scope(\"prototype\")), or use kube-reconciler's limiters, "
					+ "which scope themselves.", ex);
		}
	}

	private static List<String> quoted(Set<String> names) {
		return names.stream().map((name) -> "'" + name + "'").toList();
	}

	private static boolean isShared(RateLimiter<?> limiter, Map<RateLimiter<?>, Set<String>> users) {
		boolean[] shared = new boolean[1];
		walk(limiter, (node) -> shared[0] |= Objects.requireNonNull(users.get(node)).size() > 1);
		return shared[0];
	}

	private static <T> Map<RateLimiter<?>, Set<String>> users(List<String> scopes, List<RateLimiter<T>> limiters) {
		Map<RateLimiter<?>, Set<String>> users = new IdentityHashMap<>();
		for (int i = 0; i < limiters.size(); i++) {
			String scope = scopes.get(i);
			walk(limiters.get(i), (node) -> users.computeIfAbsent(node, (key) -> new LinkedHashSet<>()).add(scope));
		}
		return users;
	}

	private static void walk(RateLimiter<?> limiter, Consumer<RateLimiter<?>> visitor) {
		walk(limiter, visitor, Collections.newSetFromMap(new IdentityHashMap<>()));
	}

	private static void walk(RateLimiter<?> limiter, Consumer<RateLimiter<?>> visitor, Set<RateLimiter<?>> seen) {
		if (seen.add(limiter)) {
			visitor.accept(limiter);
			limiter.children().forEach((child) -> walk(child, visitor, seen));
		}
	}

}
