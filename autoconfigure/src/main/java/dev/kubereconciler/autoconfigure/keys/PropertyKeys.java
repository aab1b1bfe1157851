package dev.kubereconciler.autoconfigure.keys;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;

/**
 * Every key that a tree of properties classes binds, with wildcards for map keys and list
 * indexes, and the one nearest to a key that binds to nothing.
 */
final class PropertyKeys {

	private static final String MAP_KEY = "*";

	private static final String INDEX = "[*]";

	private final List<List<String>> keys = new ArrayList<>();

	private final List<Class<?>> open = new ArrayList<>();

	PropertyKeys(Map<String, Class<?>> trees) {
		trees.forEach((prefix, type) -> walk(type, List.of(prefix.split("\\."))));
	}

	/**
	 * The valid key nearest to the given one by edit distance, with the map keys and list
	 * indexes written as the given key writes them.
	 * @param name a key that binds to nothing
	 * @return the nearest valid key
	 */
	String nearest(ConfigurationPropertyName name) {
		String written = uniform(name, name.getNumberOfElements());
		String best = "";
		int bestDistance = Integer.MAX_VALUE;
		for (List<String> key : this.keys) {
			String candidate = render(key, name);
			int distance = distance(written, uniform(ConfigurationPropertyName.of(candidate), Integer.MAX_VALUE));
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return best;
	}

	private void walk(Class<?> type, List<String> path) {
		// a limiter holds limiters: two levels suggest enough, and stop the recursion
		if (this.open.stream().filter(type::equals).count() == 2) {
			return;
		}
		this.open.add(type);
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
			if (property.getReadMethod() == null || property.getName().equals("class")) {
				continue;
			}
			ResolvableType propertyType = ResolvableType.forMethodReturnType(property.getReadMethod());
			List<String> key = append(path, DataObjectPropertyName.toDashedForm(property.getName()));
			if (propertyType.asMap() != ResolvableType.NONE) {
				nested(propertyType.asMap().resolveGeneric(1), append(key, MAP_KEY), key);
			}
			else if (propertyType.asCollection() != ResolvableType.NONE) {
				nested(propertyType.asCollection().resolveGeneric(0), append(key, INDEX), key);
			}
			else if (isGroup(propertyType.resolve())) {
				walk(propertyType.toClass(), key);
			}
			else if (property.getWriteMethod() != null) {
				// a getter without a setter, such as isEmpty(), binds nothing
				this.keys.add(key);
			}
		}
		this.open.remove(this.open.size() - 1);
	}

	private void nested(@Nullable Class<?> element, List<String> elementPath, List<String> leaf) {
		if (element != null && isGroup(element)) {
			walk(element, elementPath);
		}
		else {
			this.keys.add(leaf);
		}
	}

	private static boolean isGroup(@Nullable Class<?> type) {
		return type != null && !type.isEnum() && type.getName().startsWith("dev.kubereconciler.autoconfigure");
	}

	private static List<String> append(List<String> path, String element) {
		List<String> appended = new ArrayList<>(path);
		appended.add(element);
		return appended;
	}

	/**
	 * Write a key as the user would have meant it: their map key or index where the key
	 * has a wildcard.
	 */
	private static String render(List<String> key, ConfigurationPropertyName name) {
		StringBuilder rendered = new StringBuilder();
		for (int i = 0; i < key.size(); i++) {
			String element = key.get(i);
			boolean given = i < name.getNumberOfElements();
			if (element.equals(INDEX)) {
				rendered.append('[')
					.append((given && name.isNumericIndex(i)) ? name.getElement(i, Form.ORIGINAL) : "0")
					.append(']');
				continue;
			}
			if (element.equals(MAP_KEY)) {
				element = (given && !name.isNumericIndex(i)) ? name.getElement(i, Form.DASHED) : "name";
			}
			rendered.append((i > 0) ? "." : "").append(element);
		}
		return rendered.toString();
	}

	// the form that relaxed binding compares, so that maxConcurentReconciles and
	// max-concurent-reconciles are as far from the valid key
	private static String uniform(ConfigurationPropertyName name, int limit) {
		StringBuilder uniform = new StringBuilder();
		for (int i = 0; i < Math.min(limit, name.getNumberOfElements()); i++) {
			uniform.append((i > 0) ? "." : "").append(name.getElement(i, Form.UNIFORM).toLowerCase(Locale.ROOT));
		}
		return uniform.toString();
	}

	/**
	 * Levenshtein distance: insertions, deletions and substitutions each count one.
	 */
	static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
