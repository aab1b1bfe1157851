package dev.kubereconciler.internal.dependent;

/**
 * A dependent's desired-state function, precondition, apply or prune failed.
 */
public final class DependentFailure extends Exception {

	private final String dependent;

	private final String message;

	DependentFailure(String dependent, Exception cause) {
		super(dependent + ": " + cause.getMessage(), cause);
		this.dependent = dependent;
		this.message = dependent + ": " + cause.getMessage();
	}

	public String reason() {
		return this.message;
	}

	public String dependent() {
		return this.dependent;
	}

}
