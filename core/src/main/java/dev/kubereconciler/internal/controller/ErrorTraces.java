package dev.kubereconciler.internal.controller;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.WriteFailedException;

/**
 * Remembers the last error each failing key logged a stack trace for, so that a key
 * retried again and again for the same reason logs its trace once and then only the
 * message, as controller-runtime logs a reconcile error.
 */
final class ErrorTraces {

	// one entry per key whose last outcome was an error: the keys the rate limiter is
	// also counting failures for, and forgotten with them
	private final Map<Request, String> lastTraced = new ConcurrentHashMap<>();

	/**
	 * Record that the key failed with the error.
	 * @param request the key
	 * @param error the error
	 * @return {@code true} if its stack trace is new for the key: the key's first
	 * failure, or an error other than its previous one
	 */
	boolean isNew(Request request, Throwable error) {
		String signature = signature(error);
		return !signature.equals(this.lastTraced.put(request, signature));
	}

	/**
	 * Forget the key's last error, once it succeeded or will not be retried.
	 * @param request the key
	 */
	void forget(Request request) {
		this.lastTraced.remove(request);
	}

	/**
	 * Describe an error in one line: its class and message, and those of its root cause
	 * when it wraps one.
	 * @param error the error
	 * @return the description
	 */
	static String describe(Throwable error) {
		Throwable root = error;
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Throwable cause = next(root); cause != null && seen.add(root); cause = next(root)) {
			root = cause;
		}
		return (root != error) ? error + "; caused by " + root : error.toString();
	}

	// a failed write already says what its client exception does, whose message dumps
	// the response with headers that change on every attempt
	private static @Nullable Throwable next(Throwable error) {
		return (error instanceof WriteFailedException) ? null : error.getCause();
	}

	// two errors are the same when the classes and messages of their cause chains are
	private static String signature(Throwable error) {
		StringBuilder signature = new StringBuilder();
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Throwable cause = error; cause != null && seen.add(cause); cause = next(cause)) {
			signature.append(cause.getClass().getName())
				.append(": ")
				.append(Objects.toString(cause.getMessage()))
				.append('\n');
		}
		return signature.toString();
	}

}
