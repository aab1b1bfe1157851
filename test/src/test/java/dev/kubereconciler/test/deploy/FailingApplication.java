package dev.kubereconciler.test.deploy;

/**
 * A main class that fails at startup, as an application whose configuration does not bind
 * does.
 */
public final class FailingApplication {

	private FailingApplication() {
	}

	public static void main(String[] args) {
		throw new IllegalStateException("No greeting configured: set GREETING_TEXT");
	}

}
