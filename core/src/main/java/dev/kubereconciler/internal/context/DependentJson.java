package dev.kubereconciler.internal.context;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;

/**
 * The JSON side of dependents: the ApplySet id of a primary object, the hash of a desired
 * state, and whether an object already holds every field of a desired state.
 */
final class DependentJson {

	private DependentJson() {
	}

	/**
	 * Return the ApplySet id of a parent object, as KEP-3659 computes it:
	 * {@code applyset-<base64url(sha256(<name>.<namespace>.<kind>.<group>))>-v1}.
	 * @param parent the primary object
	 * @return the id, a valid label value
	 */
	static String applySetId(KubernetesObject parent) {
		ResourceType type = ResourceType.of(parent.getClass());
		String namespace = (parent.getMetadata().getNamespace() != null) ? parent.getMetadata().getNamespace() : "";
		String key = parent.getMetadata().getName() + "." + namespace + "." + type.kind() + "." + type.group();
		return "applyset-" + Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(key)) + "-v1";
	}

	/**
	 * Return a short hash of a desired state, to tell on the object whether the state it
	 * was applied with is the one wanted now.
	 * @param desired the JSON of the apply
	 * @return the hash
	 */
	static String hash(JsonObject desired) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(desired.toString())).substring(0, 32);
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

	/**
	 * Return the desired state as the server would store it, where the two differ by
	 * design: a Secret's {@code stringData} is stored base64-encoded in {@code data}.
	 * @param desired the JSON of the apply, which is not changed
	 * @return the JSON to compare with what the server holds
	 */
	static JsonObject asStored(JsonObject desired) {
		if (!"Secret".equals(string(desired.get("kind"))) || !desired.has("stringData")
				|| !desired.get("stringData").isJsonObject()) {
			return desired;
		}
		JsonObject stored = desired.deepCopy();
		JsonObject data = stored.has("data") && stored.get("data").isJsonObject() ? stored.getAsJsonObject("data")
				: new JsonObject();
		for (Map.Entry<String, JsonElement> entry : stored.getAsJsonObject("stringData").entrySet()) {
			String value = string(entry.getValue());
			data.addProperty(entry.getKey(),
					Base64.getEncoder().encodeToString((value != null ? value : "").getBytes(StandardCharsets.UTF_8)));
		}
		stored.remove("stringData");
		stored.add("data", data);
		return stored;
	}

	/**
	 * Return whether an object holds every field of a desired state with the same value:
	 * objects by their keys, lists element by element and of the same length. Fields the
	 * server or others added are ignored; a field this controller wants that someone
	 * changed is not.
	 * @param actual the object's JSON
	 * @param desired the desired JSON
	 * @return whether nothing needs to be applied
	 */
	static boolean covers(@Nullable JsonElement actual, @Nullable JsonElement desired) {
		if (desired == null || desired.isJsonNull()) {
			return actual == null || actual.isJsonNull();
		}
		if (actual == null || actual.isJsonNull()) {
			return false;
		}
		if (desired.isJsonObject()) {
			if (!actual.isJsonObject()) {
				return false;
			}
			JsonObject actualObject = actual.getAsJsonObject();
			for (Map.Entry<String, JsonElement> entry : desired.getAsJsonObject().entrySet()) {
				if (!covers(actualObject.get(entry.getKey()), entry.getValue())) {
					return false;
				}
			}
			return true;
		}
		if (desired.isJsonArray()) {
			if (!actual.isJsonArray()) {
				return false;
			}
			JsonArray actualArray = actual.getAsJsonArray();
			JsonArray desiredArray = desired.getAsJsonArray();
			if (actualArray.size() != desiredArray.size()) {
				return false;
			}
			for (int i = 0; i < desiredArray.size(); i++) {
				if (!covers(actualArray.get(i), desiredArray.get(i))) {
					return false;
				}
			}
			return true;
		}
		return samePrimitive(actual, desired.getAsJsonPrimitive());
	}

	private static boolean samePrimitive(JsonElement actual, JsonPrimitive desired) {
		if (!actual.isJsonPrimitive()) {
			return false;
		}
		JsonPrimitive actualPrimitive = actual.getAsJsonPrimitive();
		if (desired.isNumber() && actualPrimitive.isNumber()) {
			return new BigDecimal(desired.getAsString()).compareTo(new BigDecimal(actualPrimitive.getAsString())) == 0;
		}
		if (desired.isBoolean() && actualPrimitive.isString()) {
			// a few fields take "true" as text
			return desired.getAsString().toLowerCase(Locale.ROOT).equals(actualPrimitive.getAsString());
		}
		return desired.equals(actualPrimitive);
	}

	private static @Nullable String string(@Nullable JsonElement element) {
		return (element != null && element.isJsonPrimitive()) ? element.getAsString() : null;
	}

}
