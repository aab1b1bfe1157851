package dev.kubereconciler.internal.dependent;

/**
 * A dependent's desired-state function, precondition, apply or prune failed.
 */
final class DependentFailure extends Exception {

	private final String dependent;

	private final String message;

	DependentFailure(String dependent, Exception cause) {
		super(dependent + ": " + cause.getMessage(), cause);
		this.dependent = dependent;
		this.message = dependent + ": " + cause.getMessage();
	}

	String reason() {
		return this.message;
	}

	String dependent() {
		return this.dependent;
	}

}
