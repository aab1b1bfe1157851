package dev.kubereconciler.crd;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ScaleSubresource;

/**
 * The entry of a model class in a CRD's {@code spec.versions}: its schema with the API
 * server's own fields, its subresources and its printer columns, each version's own.
 */
final class CrdVersionEntry {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private CrdVersionEntry() {
	}

	/**
	 * Return the entry of a model class.
	 * @param model the model class, annotated with
	 * {@link dev.kubereconciler.model.ResourceCoordinates}
	 * @param storage whether it is the version stored
	 * @return the entry: name, served, storage, schema, subresources and printer columns
	 * @throws IllegalArgumentException if a field has no structural schema
	 */
	static ObjectNode of(Class<?> model, boolean storage) {
		ObjectNode schema = CrdSchema.of(model);
		ObjectNode version = NODES.objectNode()
			.put("name", CrdVersions.resource(model).version())
			.put("served", true)
			.put("storage", storage);
		ObjectNode openApiSchema = withServerFields(schema);
		version.putObject("schema").set("openAPIV3Schema", openApiSchema);
		ObjectNode subresources = subresources(model, schema);
		if (!subresources.isEmpty()) {
			version.set("subresources", subresources);
		}
		PrinterColumn[] columns = model.getAnnotationsByType(PrinterColumn.class);
		if (columns.length > 0) {
			ArrayNode printerColumns = version.putArray("additionalPrinterColumns");
			for (PrinterColumn column : columns) {
				ObjectNode node = printerColumns.addObject()
					.put("name", column.name())
					.put("type", PrinterColumnTypes.of(column, openApiSchema, model));
				if (!column.format().isEmpty()) {
					node.put("format", column.format());
				}
				if (!column.description().isEmpty()) {
					node.put("description", column.description());
				}
				if (column.priority() != 0) {
					node.put("priority", column.priority());
				}
				node.put("jsonPath", column.jsonPath());
			}
		}
		return version;
	}

	private static ObjectNode withServerFields(ObjectNode schema) {
		// the API server's own fields first, as controller-gen writes them
		ObjectNode properties = NODES.objectNode();
		properties.putObject("apiVersion").put("type", "string");
		properties.putObject("kind").put("type", "string");
		properties.putObject("metadata").put("type", "object");
		JsonNode own = schema.get("properties");
		if (own != null) {
			own.properties().forEach((property) -> properties.set(property.getKey(), property.getValue()));
		}
		ObjectNode root = NODES.objectNode();
		JsonNode description = schema.remove("description");
		if (description != null) {
			root.set("description", description);
		}
		root.put("type", "object").set("properties", properties);
		schema.properties().forEach((property) -> root.putIfAbsent(property.getKey(), property.getValue()));
		return root;
	}

	private static ObjectNode subresources(Class<?> model, ObjectNode schema) {
		ObjectNode subresources = NODES.objectNode();
		if (schema.path("properties").has("status")) {
			subresources.putObject("status");
		}
		ScaleSubresource scale = model.getAnnotation(ScaleSubresource.class);
		if (scale != null) {
			ObjectNode node = subresources.putObject("scale")
				.put("specReplicasPath", scale.specReplicasPath())
				.put("statusReplicasPath", scale.statusReplicasPath());
			if (!scale.labelSelectorPath().isEmpty()) {
				node.put("labelSelectorPath", scale.labelSelectorPath());
			}
		}
		return subresources;
	}

}
