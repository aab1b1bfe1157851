package dev.kubereconciler.controller;

import java.util.IdentityHashMap;
import java.util.Map;

import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * How a reconcile ended, and so what happened to its key.
 */
public enum ReconcileOutcome {

	/** Returned {@code Result.done()}: the key's backoff was forgotten. */
	SUCCESS("success"),

	/**
	 * Returned {@code Result.requeue()}: the key was requeued through the rate limiter.
	 */
	REQUEUE("requeue"),

	/**
	 * Returned {@code Result.requeueAfter(d)}: the key was forgotten and requeued after
	 * exactly d.
	 */
	REQUEUE_AFTER("requeue_after"),

	/**
	 * Threw an exception or returned {@code null}: the key was requeued through the rate
	 * limiter.
	 */
	ERROR("error"),

	/** Threw a {@code TerminalReconcileException}: the key was not requeued. */
	TERMINAL_ERROR("error"),

	/**
	 * Threw an {@link Error}: recovered, and the key was requeued through the rate
	 * limiter.
	 */
	PANIC("error"),

	/**
	 * Ran past the reconcile timeout: interrupted, and the key was requeued through the
	 * rate limiter.
	 */
	TIMEOUT("error");

	private final String resultLabel;

	ReconcileOutcome(String resultLabel) {
		this.resultLabel = resultLabel;
	}

	/**
	 * Return the value of controller-runtime's {@code result} metric label for this
	 * outcome.
	 * @return {@code success}, {@code error}, {@code requeue} or {@code requeue_after}
	 */
	public String resultLabel() {
		return this.resultLabel;
	}

	/**
	 * Return whether this outcome counts as a reconcile error.
	 * @return {@code true} for every error outcome
	 */
	public boolean isError() {
		return "error".equals(this.resultLabel);
	}

	private static final int CONFLICT = 409;

	/**
	 * Return whether an error is an optimistic-concurrency conflict, which a reconcile
	 * hits whenever it writes an object with a stale {@code resourceVersion}: a
	 * client-java {@link ApiException} with code 409 anywhere in the cause chain (or
	 * among the suppressed exceptions) of the error. Listeners count these apart from
	 * other errors.
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
