package dev.kubereconciler.webhook.admission;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes {@code admission.k8s.io/v1} {@code AdmissionReview}s as plain JSON.
 *
 * <p>
 * Why not a model: client-java publishes no AdmissionReview types (its
 * {@code admissionreview} contrib module is not deployed), and fabric8's
 * {@code kubernetes-model-admissionregistration} has them on Jackson, with fabric8's
 * model of every object inside; an application on client-java would carry a second
 * Kubernetes model and a second JSON mapper for a dozen fields. The review's envelope is
 * read here with Gson, which client-java already brings, and the objects inside are read
 * by client-java's own Gson into the application's model classes.
 */
final class AdmissionReviews {

	private static final String API_VERSION = "admission.k8s.io/v1";

	private AdmissionReviews() {
	}

	/**
	 * Read a review's request.
	 * @param body the body the API server sent
	 * @return the request
	 * @throws IllegalArgumentException if the body is no admission review
	 */
	static Review read(byte[] body) {
		JsonObject review;
		try {
			JsonElement parsed = JsonParser.parseString(new String(body, StandardCharsets.UTF_8));
			if (!parsed.isJsonObject()) {
				throw new IllegalArgumentException("The body is not a JSON object");
			}
			review = parsed.getAsJsonObject();
		}
		catch (JsonParseException ex) {
			throw new IllegalArgumentException("The body is not JSON: " + ex.getMessage(), ex);
		}
		String apiVersion = string(review, "apiVersion");
		if (!"AdmissionReview".equals(string(review, "kind")) || !apiVersion.startsWith("admission.k8s.io/")) {
			throw new IllegalArgumentException("Expected an admission.k8s.io AdmissionReview, got "
					+ string(review, "apiVersion") + " " + string(review, "kind"));
		}
		JsonObject request = object(review, "request");
		if (request == null) {
			throw new IllegalArgumentException("The AdmissionReview has no request");
		}
		JsonObject kind = object(request, "kind");
		JsonObject resource = object(request, "resource");
		JsonObject user = object(request, "userInfo");
		List<String> groups = new ArrayList<>();
		if (user != null && user.get("groups") instanceof JsonArray array) {
			array.forEach((group) -> groups.add(group.getAsString()));
		}
		String operation = string(request, "operation");
		AdmissionOperation parsedOperation;
		try {
			parsedOperation = AdmissionOperation.valueOf(operation.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Unknown admission operation '" + operation + "'", ex);
		}
		AdmissionRequest admission = new AdmissionRequest(string(request, "uid"), parsedOperation,
				string(kind, "group"), string(kind, "version"), string(kind, "kind"), string(resource, "resource"),
				string(request, "subResource"), string(request, "namespace"), string(request, "name"),
				string(user, "username"), groups, request.get("dryRun") != null && !request.get("dryRun").isJsonNull()
						&& request.get("dryRun").getAsBoolean());
		return new Review(apiVersion.equals(API_VERSION) ? API_VERSION : apiVersion, admission,
				object(request, "object"), object(request, "oldObject"));
	}

	/**
	 * Write the response to a review.
	 * @param review the review answered
	 * @param answer the answer
	 * @return the body to send
	 */
	static byte[] write(Review review, Answer answer) {
		JsonObject response = new JsonObject();
		response.addProperty("uid", review.request().uid());
		response.addProperty("allowed", answer.allowed());
		if (!answer.allowed()) {
			JsonObject status = new JsonObject();
			status.addProperty("code", answer.code());
			status.addProperty("reason", answer.reason());
			status.addProperty("message", answer.message());
			response.add("status", status);
		}
		if (!answer.warnings().isEmpty()) {
			JsonArray warnings = new JsonArray();
			answer.warnings().forEach(warnings::add);
			response.add("warnings", warnings);
		}
		String patch = answer.patch();
		if (patch != null) {
			response.addProperty("patchType", "JSONPatch");
			response.addProperty("patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
		}
		JsonObject out = new JsonObject();
		out.addProperty("apiVersion", review.apiVersion());
		out.addProperty("kind", "AdmissionReview");
		out.add("response", response);
		return out.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String string(@Nullable JsonObject object, String member) {
		if (object == null) {
			return "";
		}
		JsonElement value = object.get(member);
		return (value == null || value.isJsonNull()) ? "" : value.getAsString();
	}

	private static @Nullable JsonObject object(JsonObject object, String member) {
		JsonElement value = object.get(member);
		return (value != null && value.isJsonObject()) ? value.getAsJsonObject() : null;
	}

	/**
	 * A review as the API server sent it.
	 *
	 * @param apiVersion the review's API version, echoed in the response
	 * @param request the request's fields
	 * @param object the object, absent on a delete
	 * @param oldObject the stored object, present on updates and deletes
	 */
	record Review(String apiVersion, AdmissionRequest request, @Nullable JsonObject object,
			@Nullable JsonObject oldObject) {

	}

	/**
	 * The answer to a review.
	 *
	 * @param allowed whether the request may go on
	 * @param code the HTTP status code of a refusal
	 * @param reason the status reason of a refusal, such as {@code Forbidden}
	 * @param message the message of a refusal
	 * @param warnings warnings for the client
	 * @param patch a JSON patch of the object, as JSON text
	 */
	record Answer(boolean allowed, int code, String reason, String message, List<String> warnings,
			@Nullable String patch) {

		static Answer of(AdmissionResult result) {
			String denial = result.getDenial();
			return (denial == null) ? new Answer(true, 200, "", "", result.getWarnings(), null)
					: new Answer(false, 403, "Forbidden", denial, result.getWarnings(), null);
		}

		static Answer failed(int code, String reason, String message) {
			return new Answer(false, code, reason, message, List.of(), null);
		}

		static Answer patched(@Nullable String patch) {
			return new Answer(true, 200, "", "", List.of(), patch);
		}

	}

}
