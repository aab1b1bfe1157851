package dev.kubereconciler.reconcile;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a reconciler for an error that retrying cannot fix: the item is not requeued,
 * and the error is counted in {@code controller_runtime_terminal_reconcile_errors_total}.
 * It is recognised as the cause of another exception too, as controller-runtime's
 * {@code errors.Is} sees a wrapped terminal error.
 */
public class TerminalReconcileException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public TerminalReconcileException(String message) {
		super(message);
	}

	public TerminalReconcileException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * Return whether an error is a {@code TerminalReconcileException} or has one among
	 * its causes, so that wrapping it, as a reflective call or a future does, keeps it
	 * terminal.
	 * @param error the error, or {@code null}
	 * @return whether the error is terminal
	 */
	public static boolean isTerminal(@Nullable Throwable error) {
		if (error == null) {
			// the common case, once per successful reconcile: no set to allocate
			return false;
		}
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Throwable cause = error; cause != null && seen.add(cause); cause = cause.getCause()) {
			if (cause instanceof TerminalReconcileException) {
				return true;
			}
		}
		return false;
	}

}
