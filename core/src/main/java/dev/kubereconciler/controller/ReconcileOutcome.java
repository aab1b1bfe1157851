package dev.kubereconciler.controller;

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

}
