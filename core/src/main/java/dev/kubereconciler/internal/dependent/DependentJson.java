package dev.kubereconciler.internal.dependent;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.dependent.DependentLabels;
import dev.kubereconciler.internal.context.KubernetesWriter;

/**
 * The JSON side of dependents: the ApplySet id of a primary object, the hash of a desired
 * state, and whether an object already holds every field of a desired state.
 *
 * <p>
 * An instance is the one JSON document of a desired object, from the dependent's function
 * to the apply: serialized once, then hashed, stamped with its hash, compared with the
 * cached object and sent.
 */
final class DependentJson {

	/**
	 * The lists of the built-in APIs that server-side apply merges element by element, by
	 * field name, with their keys ({@code x-kubernetes-list-map-keys}, or the
	 * {@code patchMergeKey} of the Go types); no key for a set of values. Others'
	 * elements in these lists are theirs, not drift. Any other list is atomic: an apply
	 * replaces it whole.
	 */
	static final Map<String, List<String>> MERGED_LISTS = Map.ofEntries(Map.entry("ownerReferences", List.of("uid")),
			Map.entry("finalizers", List.of()), Map.entry("containers", List.of("name")),
			Map.entry("initContainers", List.of("name")), Map.entry("ephemeralContainers", List.of("name")),
			Map.entry("env", List.of("name")), Map.entry("ports", List.of("containerPort", "port", "protocol")),
			Map.entry("volumes", List.of("name")), Map.entry("volumeMounts", List.of("mountPath")),
			Map.entry("volumeDevices", List.of("devicePath")), Map.entry("imagePullSecrets", List.of("name")),
			Map.entry("hostAliases", List.of("ip")),
			Map.entry("topologySpreadConstraints", List.of("topologyKey", "whenUnsatisfiable")),
			Map.entry("resourceClaims", List.of("name")), Map.entry("schedulingGates", List.of("name")),
			Map.entry("claims", List.of("name")), Map.entry("conditions", List.of("type")),
			Map.entry("webhooks", List.of("name")));

	private final JsonObject body;

	private final String hash;

	private DependentJson(JsonObject body, String hash) {
		this.body = body;
		this.hash = hash;
	}

	/**
	 * Serialize a desired object as its apply sends it, and stamp the hash of that state
	 * on the object and on its JSON.
	 * @param desired the desired object, which gets the hash annotation
	 * @param writer the writer that makes the apply's body
	 * @return the desired object's JSON
	 */
	static DependentJson of(KubernetesObject desired, KubernetesWriter writer) {
		JsonObject body = writer.applyJson(desired);
		String hash = hash(body);
		desired.getMetadata().putAnnotationsItem(DependentLabels.DESIRED_HASH, hash);
		JsonObject metadata = body.getAsJsonObject("metadata");
		JsonObject annotations = metadata.getAsJsonObject("annotations");
		if (annotations == null) {
			annotations = new JsonObject();
			metadata.add("annotations", annotations);
		}
		annotations.addProperty(DependentLabels.DESIRED_HASH, hash);
		return new DependentJson(body, hash);
	}

	/**
	 * Return the body of the apply.
	 * @return the JSON, with the hash annotation
	 */
	JsonObject body() {
		return this.body;
	}

	/**
	 * Return whether an object was last applied with this desired state, by the hash it
	 * carries.
	 * @param actual the cached object
	 * @return whether its hash is this state's
	 */
	boolean appliedTo(KubernetesObject actual) {
		Map<String, String> annotations = actual.getMetadata().getAnnotations();
		return annotations != null && this.hash.equals(annotations.get(DependentLabels.DESIRED_HASH));
	}

	/**
	 * Return whether an object holds every field of this desired state, as the server
	 * stores it.
	 * @param actual the cached object
	 * @return whether nothing needs to be applied
	 * @see #covers(JsonElement, JsonElement)
	 */
	boolean coveredBy(KubernetesObject actual) {
		return covers(JSON.getGson().toJsonTree(actual), asStored(this.body));
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
	 * Return whether an object holds every field of a desired state with the same value,
	 * as the server stores it: objects by their keys; a desired zero value
	 * ({@code false}, {@code 0}, {@code ""}, an empty list or object) also by an absent
	 * field, because the API omits those when it stores an object; lists the API merges
	 * by key ({@link #MERGED_LISTS}) by finding each desired element among the actual
	 * ones, so that elements others added are theirs; any other list element by element
	 * and of the same length, since an apply replaces it whole. Fields the server or
	 * others added are ignored; a field this controller wants that someone changed is
	 * not.
	 * @param actual the object's JSON
	 * @param desired the desired JSON
	 * @return whether nothing needs to be applied
	 */
	static boolean covers(@Nullable JsonElement actual, @Nullable JsonElement desired) {
		return covers(actual, desired, "");
	}

	private static boolean covers(@Nullable JsonElement actual, @Nullable JsonElement desired, String field) {
		if (desired == null || desired.isJsonNull()) {
			return actual == null || actual.isJsonNull();
		}
		if (actual == null || actual.isJsonNull()) {
			return isZero(desired);
		}
		if (desired.isJsonObject()) {
			if (!actual.isJsonObject()) {
				return false;
			}
			JsonObject actualObject = actual.getAsJsonObject();
			for (Map.Entry<String, JsonElement> entry : desired.getAsJsonObject().entrySet()) {
				if (!covers(actualObject.get(entry.getKey()), entry.getValue(), entry.getKey())) {
					return false;
				}
			}
			return true;
		}
		if (desired.isJsonArray()) {
			if (!actual.isJsonArray()) {
				return false;
			}
			List<String> keys = MERGED_LISTS.get(field);
			return (keys != null) ? coversByKey(actual.getAsJsonArray(), desired.getAsJsonArray(), keys)
					: coversWhole(actual.getAsJsonArray(), desired.getAsJsonArray());
		}
		return samePrimitive(actual, desired.getAsJsonPrimitive());
	}

	private static boolean coversWhole(JsonArray actual, JsonArray desired) {
		if (actual.size() != desired.size()) {
			return false;
		}
		for (int i = 0; i < desired.size(); i++) {
			if (!covers(actual.get(i), desired.get(i), "")) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Each desired element must be covered by an actual element of the same key. A key
	 * field the desired element leaves out, such as a port's {@code protocol}, is the
	 * server's default and matches any value.
	 */
	private static boolean coversByKey(JsonArray actual, JsonArray desired, List<String> keys) {
		for (JsonElement wanted : desired) {
			boolean found = false;
			for (JsonElement candidate : actual) {
				if (sameKey(candidate, wanted, keys) && covers(candidate, wanted, "")) {
					found = true;
					break;
				}
			}
			if (!found) {
				return false;
			}
		}
		return true;
	}

	private static boolean sameKey(JsonElement actual, JsonElement desired, List<String> keys) {
		if (!desired.isJsonObject() || !actual.isJsonObject()) {
			return true;
		}
		for (String key : keys) {
			JsonElement wanted = desired.getAsJsonObject().get(key);
			JsonElement value = actual.getAsJsonObject().get(key);
			if (wanted != null && wanted.isJsonPrimitive()
					&& (value == null || !samePrimitive(value, wanted.getAsJsonPrimitive()))) {
				return false;
			}
		}
		return true;
	}

	private static boolean isZero(JsonElement desired) {
		if (desired.isJsonNull()) {
			return true;
		}
		if (desired.isJsonArray()) {
			return desired.getAsJsonArray().isEmpty();
		}
		if (desired.isJsonObject()) {
			return desired.getAsJsonObject().entrySet().stream().allMatch((entry) -> isZero(entry.getValue()));
		}
		JsonPrimitive primitive = desired.getAsJsonPrimitive();
		if (primitive.isBoolean()) {
			return !primitive.getAsBoolean();
		}
		if (primitive.isNumber()) {
			return new BigDecimal(primitive.getAsString()).signum() == 0;
		}
		return primitive.getAsString().isEmpty();
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
