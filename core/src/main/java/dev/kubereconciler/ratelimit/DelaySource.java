package dev.kubereconciler.ratelimit;

/**
 * The kind of limiter a delay is attributed to: when limiters are composed, the one whose
 * delay was the longest decided it.
 */
public enum DelaySource {

	/** A per-item backoff, such as exponential or fast-slow. */
	BACKOFF("backoff"),

	/** A token bucket of the controller's own limiter. */
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
