package dev.kubereconciler.webhook.server;

/**
 * Receives what the webhook server does, for metrics; implementations must be thread-safe
 * and fast.
 */
public interface WebhookListener {

	/** A listener that ignores everything. */
	WebhookListener NONE = new WebhookListener() {
	};

	/**
	 * A request arrived and is being answered.
	 * @param path the webhook's path, such as {@code /validate-apps-v1-deployment}
	 */
	default void started(String path) {
	}

	/**
	 * A request was answered.
	 * @param path the webhook's path
	 * @param code the HTTP status code sent
	 * @param nanos how long the answer took, from the request's arrival
	 */
	default void finished(String path, int code, long nanos) {
	}

}
