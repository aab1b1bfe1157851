package dev.kubereconciler.webhook.admission;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.webhook.admission.AdmissionReviews.Answer;
import dev.kubereconciler.webhook.admission.AdmissionReviews.Review;

/**
 * Serves one {@link AdmissionDefaulter}: reads the object of a review into the model
 * class, lets the defaulter change it, and answers with the {@link DefaultsPatch JSON
 * patch} of the change. Deletes pass untouched, as in controller-runtime.
 *
 * @param <T> the model type
 */
public final class MutatingEndpoint<T> extends AdmissionEndpoint<T> {

	private final AdmissionDefaulter<? super T> defaulter;

	/**
	 * Create the endpoint of a defaulter; {@link dev.kubereconciler.webhook.Webhooks}
	 * does.
	 * @param type the model type
	 * @param defaulter the defaulter
	 */
	public MutatingEndpoint(Class<T> type, AdmissionDefaulter<? super T> defaulter) {
		super(type, defaulter);
		this.defaulter = defaulter;
	}

	@Override
	Answer answer(Review review) {
		AdmissionRequest request = review.request();
		JsonObject received = review.object();
		if (request.operation() == AdmissionOperation.DELETE || request.operation() == AdmissionOperation.CONNECT
				|| received == null) {
			return Answer.patched(null);
		}
		T object = read(received);
		JsonElement before = JSON.getGson().toJsonTree(object);
		this.defaulter.applyDefaults(object, request);
		JsonElement after = JSON.getGson().toJsonTree(object);
		@Nullable String patch = DefaultsPatch.of(received, before, after);
		return Answer.patched(patch);
	}

}
