package dev.kubereconciler.crd;

import java.util.ArrayList;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes victools' JSON Schema a structural schema as {@code apiextensions.k8s.io/v1}
 * wants it, and refuses one that cannot be: every value has a type, unless it is an
 * int-or-string or keeps unknown fields; no references; OpenAPI 3.0's boolean exclusive
 * bounds.
 */
final class StructuralSchema {

	private static final Set<String> SCALARS = Set.of("string", "integer", "number", "boolean");

	private static final Set<String> UNIONS = Set.of("required", "x-kubernetes-validations");

	private StructuralSchema() {
	}

	static ObjectNode of(ObjectNode schema, Class<?> model) {
		schema.remove("$schema");
		new StructuralSchemaWalk(model).visit(schema, "");
		return schema;
	}

	private record StructuralSchemaWalk(Class<?> model) {

		void visit(ObjectNode node, String path) {
			if (node.has("$ref") || node.has("$defs")) {
				throw refused(path, "refers to another schema (" + node + "), which a CRD cannot");
			}
			mergeAllOf(node);
			exclusiveBound(node, "exclusiveMinimum", "minimum");
			exclusiveBound(node, "exclusiveMaximum", "maximum");
			if (node.has("const")) {
				node.putArray("enum").add(node.remove("const"));
			}
			boolean preserves = node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
			boolean intOrString = node.path("x-kubernetes-int-or-string").asBoolean(false);
			if (!node.has("type") && !preserves && !intOrString) {
				throw refused(path, "has no type the API server can check (" + node + "): give it a concrete type, or "
						+ "annotate it with @PreserveUnknownFields to keep whatever it holds");
			}
			JsonNode additional = node.get("additionalProperties");
			if (preserves && additional != null && additional.isObject() && additional.isEmpty()) {
				node.remove("additionalProperties");
			}
			if (node.has("uniqueItems")) {
				// uniqueness is quadratic to check, so the API server takes list types
				// instead
				node.remove("uniqueItems");
				if (SCALARS.contains(node.path("items").path("type").asString(""))) {
					node.put("x-kubernetes-list-type", "set");
				}
			}
			if (node.get("properties") instanceof ObjectNode properties) {
				for (Map.Entry<String, JsonNode> property : properties.properties()) {
					visit((ObjectNode) property.getValue(),
							path.isEmpty() ? property.getKey() : path + "." + property.getKey());
				}
			}
			if (node.get("items") instanceof ObjectNode items) {
				visit(items, path + "[]");
			}
			if (node.get("additionalProperties") instanceof ObjectNode values) {
				visit(values, path + "{}");
			}
		}

		private void mergeAllOf(ObjectNode node) {
			JsonNode allOf = node.remove("allOf");
			if (allOf == null) {
				return;
			}
			// victools leaves allOf where a field's attributes meet its type's, the
			// field's last; a structural schema wants one node, in which the field's
			// description or default wins over its type's
			for (JsonNode part : allOf) {
				for (String name : new ArrayList<>(part.propertyNames())) {
					JsonNode value = part.get(name);
					if (UNIONS.contains(name) && node.get(name) instanceof ArrayNode existing) {
						value.forEach((item) -> {
							if (!existing.valueStream().anyMatch(item::equals)) {
								existing.add(item);
							}
						});
					}
					else {
						node.set(name, value);
					}
				}
			}
		}

		private static void exclusiveBound(ObjectNode node, String exclusive, String inclusive) {
			// JSON Schema's exclusive bound is a number; OpenAPI 3.0's is a flag on the
			// inclusive one
			JsonNode bound = node.get(exclusive);
			if (bound != null && bound.isNumber()) {
				node.set(inclusive, bound);
				node.put(exclusive, true);
			}
		}

		private IllegalArgumentException refused(String path, String why) {
			return new IllegalArgumentException("Cannot write the CRD of " + this.model.getName() + ": "
					+ (path.isEmpty() ? "the object" : "the field " + path) + " " + why);
		}

	}

}
