package dev.kubereconciler.reconcile;

/**
 * Thrown by a reconciler for an error that retrying cannot fix: the item is not requeued, and
 * the error is counted in {@code controller_runtime_terminal_reconcile_errors_total}.
 */
public class TerminalReconcileException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public TerminalReconcileException(String message) {
		super(message);
	}

	public TerminalReconcileException(String message, Throwable cause) {
		super(message, cause);
	}

}
