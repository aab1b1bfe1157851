package dev.kubereconciler.test.assertions;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.util.Yaml;
import org.jspecify.annotations.Nullable;

/**
 * What one read of an object found: the object, its absence, or the reason the read
 * failed; rendered for failure messages.
 *
 * @param object the object as the API server returned it, or {@code null}
 * @param error why the read failed, or {@code null}
 */
record ObjectState(@Nullable JsonObject object, @Nullable String error) {

	static ObjectState found(JsonObject object) {
		return new ObjectState(object, null);
	}

	static ObjectState gone() {
		return new ObjectState(null, null);
	}

	static ObjectState failed(String error) {
		return new ObjectState(null, error);
	}

	boolean isGone() {
		return this.object == null && this.error == null;
	}

	/**
	 * Describe the state for a failure message: the object as YAML without
	 * {@code managedFields}, which are long and never what a test is about.
	 * @return the description, starting with a line break
	 */
	String describe() {
		if (this.error != null) {
			return "\nThe last read failed: " + this.error;
		}
		if (this.object == null) {
			return "\nThe object does not exist.";
		}
		JsonObject copy = this.object.deepCopy();
		if (copy.get("metadata") instanceof JsonObject metadata) {
			metadata.remove("managedFields");
		}
		return "\nIts last state:\n" + Yaml.dump(plain(copy)).stripTrailing().indent(2).stripTrailing();
	}

	// Yaml.dump renders maps, lists and plain values; Gson's number type would be
	// rendered as a tagged object
	private static @Nullable Object plain(JsonElement element) {
		if (element instanceof JsonObject object) {
			Map<String, @Nullable Object> map = new LinkedHashMap<>();
			object.entrySet().forEach((entry) -> map.put(entry.getKey(), plain(entry.getValue())));
			return map;
		}
		if (element instanceof JsonArray array) {
			List<@Nullable Object> list = new ArrayList<>();
			array.forEach((item) -> list.add(plain(item)));
			return list;
		}
		if (element instanceof JsonPrimitive primitive) {
			if (primitive.isBoolean()) {
				return primitive.getAsBoolean();
			}
			if (primitive.isNumber()) {
				BigDecimal number = primitive.getAsBigDecimal();
				return (number.scale() <= 0) ? number.toBigInteger() : number.doubleValue();
			}
			return primitive.getAsString();
		}
		return null;
	}

}
