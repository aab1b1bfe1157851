package dev.kubereconciler.internal.context;

import java.math.BigDecimal;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

/**
 * Tells whether two statuses are the same as the API server would store them: compared as
 * the JSON that client-java sends, not by Java's {@code equals}, which a plain status
 * class does not have.
 */
final class StatusJson {

	private StatusJson() {
	}

	/**
	 * Return whether writing one status over the other would store nothing new.
	 * @param stored the status the server holds
	 * @param written the status to write
	 * @return whether both serialize to the same JSON, numbers compared by value
	 */
	static boolean same(@Nullable Object stored, @Nullable Object written) {
		if (stored == written) {
			return true;
		}
		return same(json(stored), json(written));
	}

	private static JsonElement json(@Nullable Object status) {
		return (status != null) ? JSON.getGson().toJsonTree(status) : JsonNull.INSTANCE;
	}

	private static boolean same(JsonElement a, JsonElement b) {
		if (a.isJsonObject() && b.isJsonObject()) {
			JsonObject left = a.getAsJsonObject();
			JsonObject right = b.getAsJsonObject();
			if (left.size() != right.size()) {
				return false;
			}
			for (Map.Entry<String, JsonElement> entry : left.entrySet()) {
				JsonElement other = right.get(entry.getKey());
				if (other == null || !same(entry.getValue(), other)) {
					return false;
				}
			}
			return true;
		}
		if (a.isJsonArray() && b.isJsonArray()) {
			JsonArray left = a.getAsJsonArray();
			JsonArray right = b.getAsJsonArray();
			if (left.size() != right.size()) {
				return false;
			}
			for (int i = 0; i < left.size(); i++) {
				if (!same(left.get(i), right.get(i))) {
					return false;
				}
			}
			return true;
		}
		if (a.isJsonPrimitive() && b.isJsonPrimitive()) {
			JsonPrimitive left = a.getAsJsonPrimitive();
			JsonPrimitive right = b.getAsJsonPrimitive();
			if (left.isNumber() && right.isNumber()) {
				return sameNumber(left, right);
			}
			return left.equals(right);
		}
		return a.isJsonNull() && b.isJsonNull();
	}

	// an untyped field reads 2 back as 2.0, which the server stores as the same number
	private static boolean sameNumber(JsonPrimitive a, JsonPrimitive b) {
		try {
			return new BigDecimal(a.getAsString()).compareTo(new BigDecimal(b.getAsString())) == 0;
		}
		catch (NumberFormatException ex) {
			// NaN and the infinities, which JSON cannot carry
			return a.equals(b);
		}
	}

}
