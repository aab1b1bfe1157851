package dev.kubereconciler.controller;

import java.util.IdentityHashMap;
import java.util.Map;

import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Recognises an optimistic-concurrency conflict: an HTTP 409 from the API server, which a
 * reconcile hits whenever it writes an object with a stale {@code resourceVersion}.
 */
public final class Conflicts {

	private static final int CONFLICT = 409;

	private Conflicts() {
	}

	/**
	 * Return whether a client-java {@link ApiException} with code 409 is anywhere in the
	 * cause chain (or among the suppressed exceptions) of the given error.
	 * @param error the error, may be {@code null}
	 * @return whether it is a conflict
	 */
	public static boolean isConflict(@Nullable Throwable error) {
		// cause chains can loop; visit each throwable once
		Map<Throwable, Boolean> seen = new IdentityHashMap<>();
		return isConflict(error, seen);
	}

	private static boolean isConflict(@Nullable Throwable error, Map<Throwable, Boolean> seen) {
		for (Throwable current = error; current != null
				&& seen.put(current, Boolean.TRUE) == null; current = current.getCause()) {
			if (current instanceof ApiException api && api.getCode() == CONFLICT) {
				return true;
			}
			for (Throwable suppressed : current.getSuppressed()) {
				if (isConflict(suppressed, seen)) {
					return true;
				}
			}
		}
		return false;
	}

}
