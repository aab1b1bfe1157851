package dev.kubereconciler.crd;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.kubereconciler.model.PrinterColumn;

/**
 * The type of a printer column: the one it gives, if the API server knows it, or else the
 * type of the field its path names, as {@code kubectl} formats and sorts a column by its
 * type ({@code date} shows an age).
 */
final class PrinterColumnTypes {

	private static final Set<String> TYPES = Set.of("integer", "number", "boolean", "date", "string");

	// a plain path of field names; a filter, an index or a wildcard may give a list,
	// which kubectl prints as text
	private static final Pattern FIELDS = Pattern.compile("(\\.[A-Za-z0-9_-]+)+");

	// the API server's own schema of metadata is not in the CRD
	private static final Map<String, String> METADATA = Map.of("creationTimestamp", "date", "deletionTimestamp", "date",
			"generation", "integer", "deletionGracePeriodSeconds", "integer");

	private PrinterColumnTypes() {
	}

	/**
	 * Return the type of a column.
	 * @param column the column
	 * @param schema the {@code openAPIV3Schema} of its version, the API server's fields
	 * included
	 * @param model the model class, for the message
	 * @return {@code integer}, {@code number}, {@code boolean}, {@code date} or
	 * {@code string}
	 * @throws IllegalArgumentException if the column gives a type the API server does not
	 * know, or names a field the schema does not have
	 */
	static String of(PrinterColumn column, JsonNode schema, Class<?> model) {
		String prefix = "Cannot write the CRD of " + model.getName() + ": @PrinterColumn(name = \"" + column.name()
				+ "\") ";
		if (!column.type().isEmpty()) {
			if (!TYPES.contains(column.type())) {
				throw new IllegalArgumentException(prefix + "has type \"" + column.type() + "\"; give integer, number, "
						+ "boolean, date or string, or leave it out to take the type of the field at "
						+ column.jsonPath());
			}
			return column.type();
		}
		if (!FIELDS.matcher(column.jsonPath()).matches()) {
			return "string";
		}
		List<String> names = List.of(column.jsonPath().substring(1).split("\\."));
		if (names.get(0).equals("metadata")) {
			return (names.size() == 2) ? METADATA.getOrDefault(names.get(1), "string") : "string";
		}
		JsonNode node = schema;
		String walked = "the object";
		for (String name : names) {
			JsonNode properties = node.get("properties");
			if (properties != null && properties.has(name)) {
				node = properties.get(name);
			}
			else if (node.get("additionalProperties") instanceof ObjectNode values) {
				node = values;
			}
			else if (node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
					|| node.path("x-kubernetes-int-or-string").asBoolean(false)) {
				return "string";
			}
			else {
				throw new IllegalArgumentException(prefix + "names " + column.jsonPath() + ", but " + walked
						+ " has no field " + name + "; its fields are "
						+ ((properties != null) ? properties.propertyNames() : List.of()));
			}
			walked = walked.equals("the object") ? name : walked + "." + name;
		}
		return typeOf(node);
	}

	private static String typeOf(JsonNode field) {
		String type = field.path("type").asString("");
		return switch (type) {
			case "integer", "number", "boolean" -> type;
			case "string" -> "date-time".equals(field.path("format").asString("")) ? "date" : "string";
			default -> "string";
		};
	}

}
