package dev.kubereconciler.webhook;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.webhook.AdmissionReviews.Answer;
import dev.kubereconciler.webhook.AdmissionReviews.Review;

/**
 * Serves one {@link AdmissionValidator}: reads the objects of a review into the model
 * class and answers with the validator's result; an exception becomes a refusal with its
 * message, never an HTTP error.
 *
 * @param <T> the model type
 */
final class ValidatingEndpoint<T> implements WebhookEndpoint {

	private static final Logger logger = LoggerFactory.getLogger(ValidatingEndpoint.class);

	private final Class<T> type;

	private final AdmissionValidator<? super T> validator;

	ValidatingEndpoint(Class<T> type, AdmissionValidator<? super T> validator) {
		this.type = type;
		this.validator = validator;
	}

	@Override
	public byte[] handle(byte[] body) {
		Review review = AdmissionReviews.read(body);
		return AdmissionReviews.write(review, answer(review));
	}

	private Answer answer(Review review) {
		AdmissionRequest request = review.request();
		try {
			AdmissionResult result = switch (request.operation()) {
				case CREATE -> this.validator.validateCreate(read(review.object(), "object", request), request);
				case UPDATE -> this.validator.validateUpdate(read(review.oldObject(), "oldObject", request),
						read(review.object(), "object", request), request);
				case DELETE -> this.validator.validateDelete(read(review.oldObject(), "oldObject", request), request);
				case CONNECT -> AdmissionResult.allowed();
			};
			if (result == null) {
				return Answer.failed(500, "InternalError", this.validator.getClass().getName()
						+ " returned null; return AdmissionResult.allowed() or AdmissionResult.denied(message)");
			}
			return Answer.of(result);
		}
		catch (RuntimeException ex) {
			return failure(this.validator, request, ex);
		}
	}

	private T read(@Nullable JsonObject json, String member, AdmissionRequest request) {
		if (json == null) {
			throw new IllegalStateException("The AdmissionReview of a " + request.operation() + " has no " + member);
		}
		return JSON.getGson().fromJson(json, this.type);
	}

	/**
	 * Answer an exception of the application's code, or of reading the object into its
	 * model, as a refusal: controller-runtime's {@code Errored} status, 500 with
	 * {@code InternalError}, and the exception's message, which the client sees after the
	 * API server's {@code admission webhook "..." denied the request}.
	 */
	static Answer failure(Object webhook, AdmissionRequest request, RuntimeException ex) {
		logger.warn("{} failed on the {} of {} {}/{}", webhook.getClass().getName(), request.operation(),
				request.kind(), request.namespace(), request.name(), ex);
		String message = (ex.getMessage() != null) ? ex.getMessage() : "no message";
		return Answer.failed(500, "InternalError",
				webhook.getClass().getSimpleName() + " failed: " + ex.getClass().getSimpleName() + ": " + message);
	}

}
