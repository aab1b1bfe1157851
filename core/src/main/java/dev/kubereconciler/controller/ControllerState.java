package dev.kubereconciler.controller;

/**
 * The lifecycle state of a controller.
 */
public enum ControllerState {

	/** Built but not started. */
	NEW("new"),

	/** Waiting for this instance to become leader. */
	WAITING_FOR_LEADERSHIP("waiting-for-leadership"),

	/** Workers are reconciling. */
	RUNNING("running"),

	/** Workers take no new keys until resumed; events still queue up. */
	PAUSED("paused"),

	/** Stopped on request or on lost leadership. */
	STOPPED("stopped"),

	/** Stopped because it could not start, for example when its cache did not sync. */
	FAILED("failed");

	private final String label;

	ControllerState(String label) {
		this.label = label;
	}

	/**
	 * Return the external name of this state.
	 * @return the name, for example {@code waiting-for-leadership}
	 */
	public String label() {
		return this.label;
	}

}
