package dev.kubereconciler.crd;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ResourceCoordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The type of each printer column, taken from the field its path names when the column
 * gives none, as {@code kubectl} formats a column by its type.
 */
class PrinterColumnTypeTests {

	private final CrdGenerator generator = new CrdGenerator();

	@Test
	void eachColumnTakesTheTypeOfItsField() {
		assertThat(columnTypes(Specimen.class)).containsExactly(Map.entry("Count", "integer"),
				Map.entry("Total", "integer"), Map.entry("Ratio", "number"), Map.entry("Enabled", "boolean"),
				Map.entry("Since", "date"), Map.entry("Mode", "string"), Map.entry("Memory", "string"),
				Map.entry("Host", "string"), Map.entry("Age", "date"));
	}

	@Test
	void aTypeGivenIsKeptAndAPathWithAFilterIsAString() {
		assertThat(columnTypes(Backup.class)).containsEntry("Retention", "integer");
		assertThat(columnTypes(Filtered.class)).containsExactly(Map.entry("Ready", "string"),
				Map.entry("Generation", "integer"));
	}

	@Test
	void aTypeTheServerDoesNotKnowIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(BadType.class))
			.withMessage("Cannot write the CRD of " + BadType.class.getName()
					+ ": @PrinterColumn(name = \"Size\") has type \"int\"; give integer, number, boolean, date or "
					+ "string, or leave it out to take the type of the field at .spec.size");
	}

	@Test
	void aPathToNoFieldIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(Misspelled.class))
			.withMessage("Cannot write the CRD of " + Misspelled.class.getName()
					+ ": @PrinterColumn(name = \"Size\") names .spec.sise, but spec has no field sise; its fields are "
					+ "[size]");
	}

	private Map<String, String> columnTypes(Class<?> model) {
		Map<String, String> types = new LinkedHashMap<>();
		for (JsonNode column : this.generator.crd(model).at("/spec/versions/0/additionalPrinterColumns")) {
			types.put(column.get("name").asString(), column.get("type").asString());
		}
		return types;
	}

	record SizeSpec(int size) {

	}

	record Conditions(java.util.@Nullable List<io.kubernetes.client.openapi.models.V1Condition> conditions) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Filtered", plural = "filtereds")
	@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
	@PrinterColumn(name = "Generation", jsonPath = ".metadata.generation")
	static class Filtered extends GenericResource<SizeSpec, Conditions> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "BadType", plural = "badtypes")
	@PrinterColumn(name = "Size", jsonPath = ".spec.size", type = "int")
	static class BadType extends GenericResource<SizeSpec, Void> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Misspelled", plural = "misspelleds")
	@PrinterColumn(name = "Size", jsonPath = ".spec.sise")
	static class Misspelled extends GenericResource<SizeSpec, Void> {

	}

}
