package dev.kubereconciler.webhook.server;

/**
 * One path of the webhook server: a review in, a review out, both JSON.
 */
@FunctionalInterface
public interface WebhookEndpoint {

	/**
	 * Answer one review.
	 * @param body the request's body
	 * @return the response's body, sent with {@code 200 OK}
	 * @throws IllegalArgumentException if the body is no review this endpoint reads,
	 * answered with {@code 400 Bad Request} and the exception's message
	 */
	byte[] handle(byte[] body);

}
