package dev.kubereconciler.webhook.admission;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.JSON;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.webhook.admission.AdmissionReviews.Answer;
import dev.kubereconciler.webhook.admission.AdmissionReviews.Review;
import dev.kubereconciler.webhook.server.WebhookEndpoint;

/**
 * Serves one admission webhook of the application's, a validator or a defaulter: reads
 * the review, lets the subclass answer it, and writes the answer back; an exception of
 * the application's code, or of reading the object into its model, becomes a refusal with
 * its message, never an HTTP error.
 *
 * @param <T> the model type
 */
abstract class AdmissionEndpoint<T> implements WebhookEndpoint {

	private static final Logger logger = LoggerFactory.getLogger(AdmissionEndpoint.class);

	private final Class<T> type;

	private final Object webhook;

	/**
	 * Create an endpoint.
	 * @param type the model class
	 * @param webhook the application's validator or defaulter, named in failures
	 */
	AdmissionEndpoint(Class<T> type, Object webhook) {
		this.type = type;
		this.webhook = webhook;
	}

	@Override
	public final byte[] handle(byte[] body) {
		Review review = AdmissionReviews.read(body);
		Answer answer;
		try {
			answer = answer(review);
		}
		catch (RuntimeException ex) {
			answer = failure(review.request(), ex);
		}
		return AdmissionReviews.write(review, answer);
	}

	/**
	 * Answer a review.
	 * @param review the review
	 * @return the answer
	 * @throws RuntimeException if the application's code fails, answered as a refusal
	 */
	abstract Answer answer(Review review);

	/**
	 * Read an object of the review into the model class.
	 * @param json the object
	 * @return the model
	 */
	final T read(JsonObject json) {
		return JSON.getGson().fromJson(json, this.type);
	}

	/**
	 * Answer an exception as a refusal: controller-runtime's {@code Errored} status, 500
	 * with {@code InternalError}, and the exception's message, which the client sees
	 * after the API server's {@code admission webhook "..." denied the request}.
	 */
	private Answer failure(AdmissionRequest request, RuntimeException ex) {
		logger.warn("{} failed on the {} of {} {}/{}", this.webhook.getClass().getName(), request.operation(),
				request.kind(), request.namespace(), request.name(), ex);
		String message = (ex.getMessage() != null) ? ex.getMessage() : "no message";
		return Answer.failed(500, "InternalError",
				this.webhook.getClass().getSimpleName() + " failed: " + ex.getClass().getSimpleName() + ": " + message);
	}

}
