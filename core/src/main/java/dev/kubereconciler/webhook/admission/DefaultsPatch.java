package dev.kubereconciler.webhook.admission;

import java.util.LinkedHashSet;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonPatch;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import org.jspecify.annotations.Nullable;

/**
 * The JSON patch that takes the object the API server sent to the object a defaulter
 * left, for a mutating webhook's response.
 *
 * <p>
 * The patch is computed against the JSON received, not against the model's own
 * serialization of it: a field the model does not know, or writes differently (a
 * timestamp's precision, an empty map), is no change of the defaulter's and must not be
 * patched away. So the model is serialized before and after the defaulter runs; where the
 * two agree, the received JSON stands, and where they differ, the defaulter's value is
 * taken. The RFC 6902 diff of the received JSON and that result is JSON-P's
 * {@code createDiff}, from Eclipse Parsson: the Jakarta EE reference implementation,
 * maintained by the Eclipse Foundation, small, and with no JSON mapper of its own to
 * carry; Gson has no JSON patch, and the Jackson-based libraries (zjsonpatch, json-patch)
 * would bring Jackson 2 into a Spring Boot 4 application.
 */
final class DefaultsPatch {

	private static final JsonProvider JSON_P = JsonProvider.provider();

	private DefaultsPatch() {
	}

	/**
	 * Return the patch of a defaulter's changes.
	 * @param received the object as the API server sent it
	 * @param before the model's serialization of it before the defaulter ran
	 * @param after the model's serialization after the defaulter ran
	 * @return the patch as JSON text, or {@code null} when nothing changed
	 */
	static @Nullable String of(JsonObject received, JsonElement before, JsonElement after) {
		if (before.equals(after)) {
			return null;
		}
		JsonElement result = merge(received, before, after);
		if (result == null || result.equals(received)) {
			return null;
		}
		JsonPatch patch = JSON_P.createDiff(jsonP(received).asJsonObject(), jsonP(result).asJsonObject());
		String text = patch.toJsonArray().toString();
		return "[]".equals(text) ? null : text;
	}

	// the received JSON where the model saw no change, the defaulter's value where it
	// did; null where the defaulter removed the value
	private static @Nullable JsonElement merge(@Nullable JsonElement received, @Nullable JsonElement before,
			@Nullable JsonElement after) {
		if (before == null ? after == null : before.equals(after)) {
			return received;
		}
		if (after == null) {
			return null;
		}
		if (after.isJsonObject() && (before == null || before.isJsonObject())
				&& (received == null || received.isJsonObject())) {
			JsonObject base = (received != null) ? received.getAsJsonObject() : new JsonObject();
			JsonObject was = (before != null) ? before.getAsJsonObject() : new JsonObject();
			JsonObject is = after.getAsJsonObject();
			JsonObject merged = base.deepCopy();
			Set<String> keys = new LinkedHashSet<>(was.keySet());
			keys.addAll(is.keySet());
			for (String key : keys) {
				JsonElement value = merge(base.get(key), was.get(key), is.get(key));
				if (value == null) {
					merged.remove(key);
				}
				else {
					merged.add(key, value);
				}
			}
			return merged;
		}
		if (after.isJsonArray() && before != null && before.isJsonArray() && received != null && received.isJsonArray()
				&& sameSize(received, before, after)) {
			// element by element, so that a default set inside a list keeps the fields
			// the model does not know in the list's other elements and its own
			JsonArray merged = new JsonArray();
			for (int i = 0; i < after.getAsJsonArray().size(); i++) {
				JsonElement value = merge(received.getAsJsonArray().get(i), before.getAsJsonArray().get(i),
						after.getAsJsonArray().get(i));
				merged.add(value);
			}
			return merged;
		}
		return after.deepCopy();
	}

	private static boolean sameSize(JsonElement received, JsonElement before, JsonElement after) {
		int size = after.getAsJsonArray().size();
		return received.getAsJsonArray().size() == size && before.getAsJsonArray().size() == size;
	}

	// Gson's tree as JSON-P's, as a reader of its text would give it; a number keeps its
	// text, so that 1 and 1.0, which JSON-P tells apart, stay apart as they were sent
	private static JsonValue jsonP(JsonElement json) {
		if (json.isJsonObject()) {
			JsonObjectBuilder object = JSON_P.createObjectBuilder();
			json.getAsJsonObject()
				.entrySet()
				.forEach((member) -> object.add(member.getKey(), jsonP(member.getValue())));
			return object.build();
		}
		if (json.isJsonArray()) {
			JsonArrayBuilder array = JSON_P.createArrayBuilder();
			json.getAsJsonArray().forEach((element) -> array.add(jsonP(element)));
			return array.build();
		}
		if (json.isJsonNull()) {
			return JsonValue.NULL;
		}
		JsonPrimitive primitive = json.getAsJsonPrimitive();
		if (primitive.isBoolean()) {
			return primitive.getAsBoolean() ? JsonValue.TRUE : JsonValue.FALSE;
		}
		if (primitive.isNumber()) {
			return JSON_P.createValue(primitive.getAsBigDecimal());
		}
		return JSON_P.createValue(primitive.getAsString());
	}

}
