package dev.kubereconciler.webhook.admission;

import com.google.gson.JsonObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.webhook.admission.AdmissionReviews.Answer;
import dev.kubereconciler.webhook.admission.AdmissionReviews.Review;

/**
 * Serves one {@link AdmissionValidator}: reads the objects of a review into the model
 * class and answers with the validator's result.
 *
 * @param <T> the model type
 */
public final class ValidatingEndpoint<T> extends AdmissionEndpoint<T> {

	private final AdmissionValidator<? super T> validator;

	/**
	 * Create the endpoint of a validator; {@link dev.kubereconciler.webhook.Webhooks}
	 * does.
	 * @param type the model type
	 * @param validator the validator
	 */
	public ValidatingEndpoint(Class<T> type, AdmissionValidator<? super T> validator) {
		super(type, validator);
		this.validator = validator;
	}

	@Override
	Answer answer(Review review) {
		AdmissionRequest request = review.request();
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

	private T read(@Nullable JsonObject json, String member, AdmissionRequest request) {
		if (json == null) {
			throw new IllegalStateException("The AdmissionReview of a " + request.operation() + " has no " + member);
		}
		return read(json);
	}

}
