package dev.kubereconciler.controller;

/**
 * Which limiter a key's delay is attributed to.
 */
public enum DelaySource {

	/** The controller's per-item backoff. */
	BACKOFF("backoff"),

	/** The controller's own token bucket. */
	BUCKET("bucket"),

	/** The manager-level token bucket shared by every controller. */
	MANAGER("manager");

	private final String label;

	DelaySource(String label) {
		this.label = label;
	}

	/**
	 * Return the value of the {@code source} metric label.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

}
