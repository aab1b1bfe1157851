package dev.kubereconciler.test.assertions;

import java.util.ArrayList;
import java.util.List;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * A simple path into an object's JSON, written as kubectl's JSONPath without the braces
 * and the leading dot: {@code status.replicas}, {@code spec.containers[0].image}, and
 * {@code metadata.labels.app\.kubernetes\.io/name} for a key with dots in it.
 */
final class FieldPath {

	private final String text;

	private final List<Object> segments;

	private FieldPath(String text, List<Object> segments) {
		this.text = text;
		this.segments = segments;
	}

	static FieldPath parse(String path) {
		List<Object> segments = new ArrayList<>();
		StringBuilder key = new StringBuilder();
		int i = 0;
		while (i < path.length()) {
			char c = path.charAt(i);
			if (c == '\\' && i + 1 < path.length()) {
				key.append(path.charAt(i + 1));
				i += 2;
				continue;
			}
			if (c == '.') {
				addKey(path, segments, key);
			}
			else if (c == '[') {
				int end = path.indexOf(']', i);
				if (end < 0) {
					throw invalid(path, "a '[' has no ']'");
				}
				if (!key.isEmpty()) {
					addKey(path, segments, key);
				}
				String index = path.substring(i + 1, end);
				if (!index.matches("[0-9]+")) {
					throw invalid(path, "'[" + index + "]' is not a list index");
				}
				segments.add(Integer.parseInt(index));
				i = end + 1;
				if (i < path.length() && path.charAt(i) == '.') {
					i++;
				}
				continue;
			}
			else {
				key.append(c);
			}
			i++;
		}
		if (!key.isEmpty() || segments.isEmpty()) {
			addKey(path, segments, key);
		}
		return new FieldPath(path, List.copyOf(segments));
	}

	private static void addKey(String path, List<Object> segments, StringBuilder key) {
		if (key.isEmpty()) {
			throw invalid(path, "it has an empty key");
		}
		segments.add(key.toString());
		key.setLength(0);
	}

	private static IllegalArgumentException invalid(String path, String reason) {
		return new IllegalArgumentException("Invalid field path '" + path + "': " + reason
				+ "; write it as status.replicas, spec.containers[0].image or metadata.labels.app\\.kubernetes\\.io/name");
	}

	/**
	 * Return the value at this path.
	 * @param object the object
	 * @return the value, or {@code null} if a step of the path is missing
	 */
	@Nullable JsonElement find(JsonObject object) {
		JsonElement current = object;
		for (Object segment : this.segments) {
			if (segment instanceof Integer index) {
				if (!(current instanceof JsonArray array) || index >= array.size()) {
					return null;
				}
				current = array.get(index);
			}
			else {
				if (!(current instanceof JsonObject json) || !json.has((String) segment)) {
					return null;
				}
				current = json.get((String) segment);
			}
		}
		return current;
	}

	@Override
	public String toString() {
		return this.text;
	}

}
