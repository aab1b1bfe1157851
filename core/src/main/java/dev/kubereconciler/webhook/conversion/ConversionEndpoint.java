package dev.kubereconciler.webhook.conversion;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.webhook.server.WebhookEndpoint;

/**
 * Serves {@code apiextensions.k8s.io/v1} {@code ConversionReview}s: each object is read
 * into the model class of its version, converted to the hub and from there to the desired
 * version, and written back with the metadata it came with, where only labels and
 * annotations may change.
 */
public final class ConversionEndpoint implements WebhookEndpoint {

	private static final Logger logger = LoggerFactory.getLogger(ConversionEndpoint.class);

	private final Map<String, Hub> hubs;

	/**
	 * Create the endpoint.
	 * @param hubs the converted resources by {@code <group>/<kind>}
	 */
	public ConversionEndpoint(Map<String, Hub> hubs) {
		this.hubs = Map.copyOf(hubs);
	}

	@Override
	public byte[] handle(byte[] body) {
		JsonObject review = parse(body);
		JsonElement request = review.get("request");
		if (request == null || !request.isJsonObject()) {
			throw new IllegalArgumentException("The ConversionReview has no request");
		}
		JsonObject in = request.getAsJsonObject();
		String uid = in.has("uid") ? in.get("uid").getAsString() : "";
		JsonObject response = new JsonObject();
		response.addProperty("uid", uid);
		JsonObject result = new JsonObject();
		try {
			String desired = in.get("desiredAPIVersion").getAsString();
			JsonArray converted = new JsonArray();
			for (JsonElement object : in.getAsJsonArray("objects")) {
				converted.add(convert(object.getAsJsonObject(), desired));
			}
			response.add("convertedObjects", converted);
			result.addProperty("status", "Success");
		}
		catch (RuntimeException ex) {
			// the API server answers the client's read or write with this message
			logger.warn("Conversion failed", ex);
			result.addProperty("status", "Failure");
			result.addProperty("message", (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getName());
		}
		response.add("result", result);
		JsonObject out = new JsonObject();
		out.addProperty("apiVersion",
				review.has("apiVersion") ? review.get("apiVersion").getAsString() : "apiextensions.k8s.io/v1");
		out.addProperty("kind", "ConversionReview");
		out.add("response", response);
		return out.toString().getBytes(StandardCharsets.UTF_8);
	}

	private JsonObject convert(JsonObject object, String desiredApiVersion) {
		String apiVersion = object.get("apiVersion").getAsString();
		if (apiVersion.equals(desiredApiVersion)) {
			return object;
		}
		String kind = object.get("kind").getAsString();
		String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
		Hub hub = this.hubs.get(group + "/" + kind);
		if (hub == null) {
			throw new IllegalStateException("No converters for " + kind + " of " + group);
		}
		Object inHub = hub.toHub(object, version(apiVersion));
		JsonObject out = hub.fromHub(inHub, version(desiredApiVersion)).getAsJsonObject();
		out.addProperty("apiVersion", desiredApiVersion);
		out.addProperty("kind", kind);
		out.add("metadata", metadata(object.getAsJsonObject("metadata"), out.getAsJsonObject("metadata")));
		return out;
	}

	// the metadata received, with the labels and annotations of the converted object
	private static JsonObject metadata(@Nullable JsonObject received, @Nullable JsonObject converted) {
		JsonObject metadata = (received != null) ? received.deepCopy() : new JsonObject();
		for (String member : new String[] { "labels", "annotations" }) {
			JsonElement value = (converted != null) ? converted.get(member) : null;
			if (value == null || value.isJsonNull() || (value.isJsonObject() && value.getAsJsonObject().isEmpty())) {
				metadata.remove(member);
			}
			else {
				metadata.add(member, value);
			}
		}
		return metadata;
	}

	private static String version(String apiVersion) {
		return apiVersion.substring(apiVersion.indexOf('/') + 1);
	}

	private static JsonObject parse(byte[] body) {
		JsonElement parsed;
		try {
			parsed = JsonParser.parseString(new String(body, StandardCharsets.UTF_8));
		}
		catch (JsonParseException ex) {
			throw new IllegalArgumentException("The body is not JSON: " + ex.getMessage(), ex);
		}
		if (parsed.isJsonObject()) {
			JsonObject review = parsed.getAsJsonObject();
			JsonElement kind = review.get("kind");
			if (kind != null && "ConversionReview".equals(kind.getAsString())) {
				return review;
			}
		}
		throw new IllegalArgumentException("Expected an apiextensions.k8s.io ConversionReview");
	}

	/**
	 * The versions of one custom resource: the hub and a converter for each spoke.
	 *
	 * @param hub the hub version
	 * @param spokes the spokes by version
	 */
	public record Hub(ResourceType hub, Map<String, Spoke> spokes) {

		Object toHub(JsonObject object, String version) {
			if (version.equals(this.hub.version())) {
				return JSON.getGson().fromJson(object, this.hub.apiType());
			}
			Spoke spoke = spoke(version);
			return spoke.converter().toHub(JSON.getGson().fromJson(object, spoke.type().apiType()));
		}

		JsonElement fromHub(Object hub, String version) {
			if (version.equals(this.hub.version())) {
				return JSON.getGson().toJsonTree(hub);
			}
			return JSON.getGson().toJsonTree(spoke(version).converter().fromHub(hub));
		}

		private Spoke spoke(String version) {
			Spoke spoke = this.spokes.get(version);
			if (spoke == null) {
				throw new IllegalStateException("No converter between " + this.hub.kind() + " " + version
						+ " and the hub " + this.hub.version());
			}
			return spoke;
		}

	}

	/**
	 * A spoke version and its converter.
	 *
	 * @param type the spoke version
	 * @param converter the converter, from and to the hub's model class
	 */
	public record Spoke(ResourceType type, VersionConverter<Object, Object> converter) {

	}

}
