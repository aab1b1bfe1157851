package dev.kubereconciler.crd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.kubereconciler.model.Default;
import dev.kubereconciler.model.PreserveUnknownFields;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.ValidationRule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The schema and CRD the generator writes for each feature, read from {@link Backup} and
 * small models of the test's own.
 */
class CrdGeneratorTests {

	private static final String SCHEMA = "/spec/versions/0/schema/openAPIV3Schema";

	private static final String SPEC = SCHEMA + "/properties/spec/properties";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final CrdGenerator generator = new CrdGenerator();

	private final JsonNode backup = this.generator.crd(Backup.class);

	@Test
	void namesScopeAndVersionComeFromTheAnnotations() {
		assertThat(this.backup.at("/metadata/name").asString()).isEqualTo("backups.crd.kubereconciler.dev");
		assertJson(this.backup.at("/spec/names"), """
				{"kind": "Backup", "listKind": "BackupList", "plural": "backups", "singular": "backup",
				 "shortNames": ["bk"], "categories": ["all", "databases"]}""");
		assertThat(this.backup.at("/spec/scope").asString()).isEqualTo("Namespaced");
		assertThat(this.backup.at("/spec/versions/0/name").asString()).isEqualTo("v1alpha1");
		assertThat(this.generator.crd(Snapshot.class).at("/spec/scope").asString()).isEqualTo("Cluster");
		assertThat(CrdGenerator.fileName(Backup.class)).isEqualTo("backups.crd.kubereconciler.dev.yaml");
	}

	@Test
	void integersAndNumbersCarryTheirFormats() {
		assertJson(this.backup.at(SPEC + "/replicas"), "{\"type\": \"integer\", \"format\": \"int32\"}");
		assertJson(this.backup.at(SPEC + "/sizeLimitBytes"), "{\"type\": \"integer\", \"format\": \"int64\"}");
		assertJson(this.backup.at(SPEC + "/compression"), "{\"type\": \"number\", \"format\": \"double\"}");
		assertJson(this.backup.at(SCHEMA + "/properties/status/properties/lastBackupTime"),
				"{\"type\": \"string\", \"format\": \"date-time\"}");
	}

	@Test
	void enumsListTheirSerializedNames() {
		assertThat(this.backup.at(SPEC + "/schedule/enum").toString()).isEqualTo("[\"hourly\",\"daily\"]");
	}

	@Test
	void quantitiesAndIntOrStringsAreIntOrString() {
		assertJson(this.backup.at(SPEC + "/port"), """
				{"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true}""");
		assertThat(this.backup.at(SPEC + "/storage/x-kubernetes-int-or-string").asBoolean()).isTrue();
		assertThat(this.backup.at(SPEC + "/storage/pattern").asString()).startsWith("^(\\+|-)?");
	}

	@Test
	void listsSetsMapsAndNestedObjects() {
		assertThat(this.backup.at(SPEC + "/tags/items/type").asString()).isEqualTo("string");
		assertThat(this.backup.at(SPEC + "/tags/x-kubernetes-list-type").isMissingNode()).isTrue();
		assertThat(this.backup.at(SPEC + "/targets/x-kubernetes-list-type").asString()).isEqualTo("set");
		assertThat(this.backup.at(SPEC + "/targets/uniqueItems").isMissingNode()).isTrue();
		assertJson(this.backup.at(SPEC + "/labels"),
				"{\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}}");
		assertThat(this.backup.at(SPEC + "/window/properties/start/type").asString()).isEqualTo("integer");
		assertThat(this.backup.at(SCHEMA + "/properties/status/properties/conditions/items/properties/reason/type")
			.asString()).isEqualTo("string");
	}

	@Test
	void jakartaConstraintsBecomeTheSchemasBounds() {
		assertThat(this.backup.at(SPEC + "/retentionDays/minimum").asInt()).isEqualTo(1);
		assertThat(this.backup.at(SPEC + "/retentionDays/maximum").asInt()).isEqualTo(30);
		assertThat(this.backup.at(SPEC + "/tags/maxItems").asInt()).isEqualTo(5);
		assertThat(this.backup.at(SPEC + "/database/pattern").asString()).isEqualTo("^[a-z][a-z0-9-]*$");
		assertThat(this.backup.at(SCHEMA + "/properties/spec/required").toString()).isEqualTo("[\"database\"]");
		assertJson(this.generator.crd(Snapshot.class).at(SCHEMA + "/properties/spec/properties/note"),
				"{\"type\": \"string\", \"minLength\": 2, \"maxLength\": 40}");
	}

	@Test
	void defaultsAreTypedByTheirField() {
		assertThat(this.backup.at(SPEC + "/retentionDays/default").isIntegralNumber()).isTrue();
		assertThat(this.backup.at(SPEC + "/retentionDays/default").asInt()).isEqualTo(7);
		assertThat(this.backup.at(SPEC + "/schedule/default").asString()).isEqualTo("daily");
	}

	@Test
	void aDefaultThatIsNotJsonIsRefusedNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(BadDefault.class))
			.withMessageStartingWith(
					"@Default(\"two\") of " + BadDefaultSpec.class.getName() + ".replicas is not JSON");
	}

	@Test
	void validationRulesOfFieldsAndTypesBecomeCelRules() {
		assertJson(this.backup.at(SPEC + "/window/x-kubernetes-validations"),
				"[{\"rule\": \"self.start < self.end\", \"message\": \"start must come before end\"}]");
		assertThat(this.backup.at(SCHEMA + "/properties/spec/x-kubernetes-validations/0/rule").asString())
			.startsWith("!has(self.targets)");
		assertJson(this.generator.crd(Snapshot.class).at(SCHEMA + "/properties/spec/properties/source"),
				"{\"type\": \"string\", \"x-kubernetes-validations\": [{\"rule\": \"self != ''\"}]}");
	}

	@Test
	void freeFormFieldsKeepUnknownFieldsWhereAsked() {
		assertJson(this.backup.at(SPEC + "/options"),
				"{\"type\": \"object\", \"x-kubernetes-preserve-unknown-fields\": true}");
		assertJson(this.generator.crd(Snapshot.class).at(SCHEMA + "/properties/spec/properties/extra"),
				"{\"x-kubernetes-preserve-unknown-fields\": true}");
		// an Object is any JSON value, and keeps it without being asked
		assertJson(this.generator.crd(Untyped.class).at(SCHEMA + "/properties/spec/properties/anything"),
				"{\"x-kubernetes-preserve-unknown-fields\": true}");
	}

	@Test
	void descriptionsOfFieldsAndTypes() {
		assertThat(this.backup.at(SCHEMA + "/description").asString()).isEqualTo("A scheduled backup of a database.");
		assertThat(this.backup.at(SPEC + "/database/description").asString()).isEqualTo("The database to back up.");
		// the field's own description wins over its type's
		assertThat(this.backup.at(SPEC + "/window/description").asString()).isEqualTo("When backups may run.");
	}

	@Test
	void theServersFieldsComeFirstAndOtherModelFieldsStayOut() {
		assertThat(this.backup.at(SCHEMA + "/properties").propertyNames()).containsExactly("apiVersion", "kind",
				"metadata", "spec", "status");
		assertThat(this.generator.crd(Snapshot.class).at(SCHEMA + "/properties").propertyNames())
			.containsExactly("apiVersion", "kind", "metadata", "spec");
	}

	@Test
	void aHandWrittenModelAndAGenericBaseGiveTheSameSpec() {
		assertThat(this.generator.crd(GenericSnapshot.class).at(SCHEMA + "/properties/spec"))
			.isEqualTo(this.generator.crd(Snapshot.class).at(SCHEMA + "/properties/spec"));
	}

	@Test
	void statusSubresourceOnlyWithAStatusAndScaleWhereAsked() {
		assertJson(this.backup.at("/spec/versions/0/subresources"), """
				{"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas",
				 "labelSelectorPath": ".status.selector"}}""");
		assertThat(this.generator.crd(Snapshot.class).at("/spec/versions/0/subresources").isMissingNode()).isTrue();
	}

	@Test
	void printerColumnsInTheirOrder() {
		assertJson(this.backup.at("/spec/versions/0/additionalPrinterColumns"),
				"""
						[{"name": "Database", "type": "string", "jsonPath": ".spec.database"},
						 {"name": "Retention", "type": "integer", "description": "Days kept", "jsonPath": ".spec.retentionDays"},
						 {"name": "Phase", "type": "string", "priority": 1, "jsonPath": ".status.phase"}]""");
	}

	@Test
	void aClassWithoutKubernetesResourceIsRefusedWithTheFix() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.yaml(String.class))
			.withMessage("java.lang.String has no CRD to generate: annotate it with "
					+ "@ResourceCoordinates(group, version, kind, plural)");
	}

	@Test
	void aTypeThatContainsItselfIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(Recursive.class))
			.withMessageContaining("Cannot write the schema of " + Recursive.class.getName())
			.withMessageContaining("cannot refer to itself");
	}

	@Test
	void writesOneFilePerCrdNamedAfterIt(@TempDir Path directory) throws IOException {
		List<Path> written = this.generator.write(directory.resolve("crds"),
				List.of(Backup.class, Snapshot.class, Backup.class));
		assertThat(written).extracting((path) -> path.getFileName().toString())
			.containsExactly("backups.crd.kubereconciler.dev.yaml", "snapshots.crd.kubereconciler.dev.yaml");
		assertThat(Files.readString(written.get(0))).isEqualTo(this.generator.yaml(Backup.class));
	}

	@Test
	void twoModelsOfOneVersionOfOneCrdAreRefused(@TempDir Path directory) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.write(directory, List.of(Snapshot.class, GenericSnapshot.class)))
			.withMessageContaining("both declare version v1 of the CRD snapshots.crd.kubereconciler.dev");
		assertThat(directory).isEmptyDirectory();
	}

	private static void assertJson(JsonNode actual, String expected) {
		assertThat(actual).isEqualTo(JSON.readTree(expected));
	}

	/**
	 * A hand-written, cluster-scoped model without a status.
	 */
	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Snapshot", plural = "snapshots",
			namespaced = false)
	static class Snapshot implements KubernetesObject {

		@SerializedName("metadata")
		private V1ObjectMeta metadata = new V1ObjectMeta();

		@SerializedName("spec")
		private @Nullable SnapshotSpec spec;

		@Override
		public V1ObjectMeta getMetadata() {
			return this.metadata;
		}

		@Override
		public String getApiVersion() {
			return "crd.kubereconciler.dev/v1";
		}

		@Override
		public String getKind() {
			return "Snapshot";
		}

	}

	/**
	 * The same CRD, on the generic base with no status.
	 */
	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Snapshot", plural = "snapshots",
			namespaced = false)
	static class GenericSnapshot extends GenericResource<SnapshotSpec, Void> {

	}

	record SnapshotSpec(@ValidationRule("self != ''") @Nullable String source,
			@Size(min = 2, max = 40) @Nullable String note, @PreserveUnknownFields @Nullable Object extra) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Untyped", plural = "untypeds")
	static class Untyped extends GenericResource<UntypedSpec, Void> {

	}

	record UntypedSpec(@Nullable Object anything) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "BadDefault", plural = "baddefaults")
	static class BadDefault extends GenericResource<BadDefaultSpec, Void> {

	}

	record BadDefaultSpec(@Default("two") @Nullable Integer replicas) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Recursive", plural = "recursives")
	static class Recursive extends GenericResource<Node, Void> {

	}

	record Node(@Nullable String name, @Nullable List<Node> children) {

	}

}
