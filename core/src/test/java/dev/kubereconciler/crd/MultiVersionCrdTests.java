package dev.kubereconciler.crd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonParser;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.kubereconciler.crd.CrdFiles.Crd;
import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.ShortNames;
import dev.kubereconciler.model.StorageVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The CRD of several model classes that share group and plural: one version each, the
 * storage version marked, Kubernetes' order of versions, the refusals when the classes do
 * not agree, and the conversion webhook.
 */
class MultiVersionCrdTests {

	private static final String NAME = "databases.crd.kubereconciler.dev";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final CrdGenerator generator = new CrdGenerator();

	private final JsonNode crd = this.generator
		.crd(List.of(DatabaseV1alpha1.class, DatabaseV1.class, DatabaseV1beta1.class), null);

	@Test
	void classesOfOneGroupAndPluralBecomeOneCrdWithAVersionEach() {
		assertThat(this.crd.at("/metadata/name").asString()).isEqualTo(NAME);
		assertJson(this.crd.at("/spec/names"), """
				{"kind": "Database", "listKind": "DatabaseList", "plural": "databases", "singular": "database",
				 "shortNames": ["db"]}""");
		assertThat(this.crd.at("/spec/versions")).extracting((version) -> version.get("name").asString())
			.containsExactly("v1", "v1beta1", "v1alpha1");
		assertThat(this.crd.at("/spec/versions"))
			.allSatisfy((version) -> assertThat(version.get("served").asBoolean()).isTrue());
	}

	@Test
	void onlyTheMarkedVersionIsStored() {
		assertThat(this.crd.at("/spec/versions")).extracting((version) -> version.get("storage").asBoolean())
			.containsExactly(true, false, false);
	}

	@Test
	void eachVersionHasItsOwnSchemaSubresourcesAndPrinterColumns() {
		JsonNode v1 = this.crd.at("/spec/versions/0");
		JsonNode v1alpha1 = this.crd.at("/spec/versions/2");
		assertThat(v1.at("/schema/openAPIV3Schema/properties/spec/properties").propertyNames())
			.containsExactly("engine", "replicas");
		assertThat(v1.at("/schema/openAPIV3Schema/properties/spec/properties/replicas/minimum").asInt()).isEqualTo(1);
		assertThat(v1alpha1.at("/schema/openAPIV3Schema/properties/spec/properties").propertyNames())
			.containsExactly("engine", "size");
		assertJson(v1.at("/subresources"), "{\"status\": {}}");
		assertThat(v1alpha1.has("subresources")).isFalse();
		assertJson(v1.at("/additionalPrinterColumns"),
				"[{\"name\": \"Replicas\", \"type\": \"integer\", \"jsonPath\": \".spec.replicas\"}]");
		assertJson(v1alpha1.at("/additionalPrinterColumns"),
				"[{\"name\": \"Size\", \"type\": \"string\", \"jsonPath\": \".spec.size\"}]");
	}

	@Test
	void versionsFollowKubernetesPriorityWithOtherNamesLastAlphabetically() {
		// apimachinery's own example for CompareKubeAwareVersionStrings
		List<String> expected = List.of("v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2",
				"foo1", "foo10");
		List<String> versions = new ArrayList<>(expected);
		Collections.reverse(versions);
		versions.sort(VersionPriority.ORDER);
		assertThat(versions).isEqualTo(expected);
	}

	@Test
	void oneVersionIsStoredWithoutTheAnnotation() {
		JsonNode single = this.generator.crd(DatabaseV1alpha1.class);
		assertThat(single.at("/spec/versions")).singleElement()
			.satisfies((version) -> assertThat(version.get("storage").asBoolean()).isTrue());
	}

	@Test
	void severalVersionsWithNoneStoredAreRefusedNamingThem() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.yaml(List.of(DatabaseV1alpha1.class, DatabaseV1beta1.class)))
			.withMessage("The CRD " + NAME + " has versions v1beta1 (" + DatabaseV1beta1.class.getName()
					+ "), v1alpha1 (" + DatabaseV1alpha1.class.getName() + "), and none is marked as the one stored: "
					+ "annotate one of them, usually the newest, with @StorageVersion");
	}

	@Test
	void twoStoredVersionsAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.yaml(List.of(DatabaseV1.class, StoredDatabaseV2.class)))
			.withMessage(StoredDatabaseV2.class.getName() + " and " + DatabaseV1.class.getName()
					+ " are each marked @StorageVersion of the CRD " + NAME
					+ ", which stores one version: keep the annotation on one of them");
	}

	@Test
	void aKindOfItsOwnIsRefusedNamingBothClasses() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.yaml(List.of(DatabaseV1.class, OtherKindV2.class)))
			.withMessage(DatabaseV1.class.getName() + " (kind Database) and " + OtherKindV2.class.getName()
					+ " (kind Datastore) declare versions of the CRD " + NAME
					+ ", whose versions must agree on its kind: give both the same kind, or each a plural of its own");
	}

	@Test
	void aScopeOfItsOwnIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.yaml(List.of(DatabaseV1.class, ClusterDatabaseV2.class)))
			.withMessageContaining(
					"(scope namespaced) and " + ClusterDatabaseV2.class.getName() + " (scope cluster-scoped)")
			.withMessageEndingWith("give both the same @ResourceCoordinates(namespaced)");
	}

	@Test
	void shortNamesGivenByOneVersionAreTheCrdsAndDifferentOnesAreRefused() {
		assertThat(this.generator.crd(List.of(DatabaseV1alpha1.class, DatabaseV1.class), null)
			.at("/spec/names/shortNames")
			.toString()).isEqualTo("[\"db\"]");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.yaml(List.of(DatabaseV1.class, DatabaseV1beta1.class, RenamedV2.class)))
			.withMessageContaining(DatabaseV1.class.getName() + " (short names [db]) and " + RenamedV2.class.getName()
					+ " (short names [dbs])")
			.withMessageEndingWith("give both the same @ShortNames, or put @ShortNames on one of them only");
	}

	@Test
	void oneVersionTwiceIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.yaml(List.of(DatabaseV1.class, AnotherDatabaseV1.class)))
			.withMessage(DatabaseV1.class.getName() + " and " + AnotherDatabaseV1.class.getName()
					+ " both declare version v1 of the CRD " + NAME
					+ ": give each class a version of its own in @ResourceCoordinates, or drop one of them");
	}

	@Test
	void classesOfDifferentCrdsAreNotOneCrd() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.yaml(List.of(DatabaseV1.class, Backup.class)))
			.withMessageStartingWith(DatabaseV1.class.getName() + " declares the CRD " + NAME + " and "
					+ Backup.class.getName() + " the CRD backups.crd.kubereconciler.dev");
	}

	@Test
	void withoutAWebhookTheCrdHasNoConversion() {
		assertThat(this.crd.at("/spec").has("conversion")).isFalse();
	}

	@Test
	void aServiceWebhookBecomesTheConversionOfTheCrd() {
		WebhookClientConfig webhook = WebhookClientConfig.service("operators", "database-operator", "/convert", 9443)
			.withCaBundle("-----BEGIN CERTIFICATE-----".getBytes(StandardCharsets.US_ASCII));
		JsonNode converted = this.generator.crd(List.of(DatabaseV1alpha1.class, DatabaseV1.class), webhook);
		assertJson(converted.at("/spec/conversion"),
				"""
						{"strategy": "Webhook", "webhook": {
						  "clientConfig": {"service": {"namespace": "operators", "name": "database-operator", "path": "/convert",
						                               "port": 9443},
						                   "caBundle": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t"},
						  "conversionReviewVersions": ["v1"]}}""");
		assertThat(converted.at("/spec").propertyNames()).last().isEqualTo("conversion");
	}

	@Test
	void aUrlWebhookHasNoCaBundleUnlessGiven() {
		assertThat(WebhookClientConfig.url("https://convert.example.com:8443/databases").conversion())
			.isEqualTo(Map.of("strategy", "Webhook", "webhook",
					Map.of("clientConfig", Map.of("url", "https://convert.example.com:8443/databases"),
							"conversionReviewVersions", List.of("v1"))));
	}

	@Test
	void theConversionAloneIsTheOneInTheCrd() {
		WebhookClientConfig webhook = WebhookClientConfig.service("operators", "database-operator", "/convert", 443);
		assertThat(JSON.<JsonNode>valueToTree(webhook.conversion()))
			.isEqualTo(this.generator.crd(List.of(DatabaseV1.class), webhook).at("/spec/conversion"));
	}

	@Test
	void aWebhookTheApiServerWouldRefuseIsRefusedFirst() {
		assertThatIllegalArgumentException().isThrownBy(() -> new WebhookClientConfig(null, null, null))
			.withMessage("A conversion webhook is reached by a Service or by a URL, not neither");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WebhookClientConfig(new WebhookClientConfig.ServiceReference("ns", "svc", null, 443),
					"https://example.com", null))
			.withMessage("A conversion webhook is reached by a Service or by a URL, not both");
		assertThatIllegalArgumentException().isThrownBy(() -> WebhookClientConfig.url("http://example.com/convert"))
			.withMessageContaining("must be https://<host>[:port]/<path>");
		assertThatIllegalArgumentException().isThrownBy(() -> WebhookClientConfig.url("https://example.com/c?x=1"))
			.withMessageContaining("may have no query, fragment or user info");
		assertThatIllegalArgumentException().isThrownBy(() -> WebhookClientConfig.service("ns", "svc", "convert", 443))
			.withMessageContaining("must start with a slash, such as /convert");
		assertThatIllegalArgumentException().isThrownBy(() -> WebhookClientConfig.service("ns", "svc", "/convert", 0))
			.withMessageContaining("is not a port");
	}

	@Test
	void webhooksWithEqualCaBundlesAreEqual() {
		WebhookClientConfig webhook = WebhookClientConfig.url("https://example.com/convert");
		assertThat(webhook.withCaBundle(new byte[] { 1, 2 })).isEqualTo(webhook.withCaBundle(new byte[] { 1, 2 }))
			.hasSameHashCodeAs(webhook.withCaBundle(new byte[] { 1, 2 }))
			.isNotEqualTo(webhook);
	}

	@Test
	void writeGroupsTheVersionsOfEachCrdIntoOneFile(@TempDir Path directory) throws IOException {
		WebhookClientConfig webhook = WebhookClientConfig.service("operators", "database-operator", "/convert", 443);
		List<Path> written = this.generator.write(directory,
				List.of(DatabaseV1alpha1.class, Backup.class, DatabaseV1.class), Map.of(NAME, webhook));
		assertThat(written).extracting((path) -> path.getFileName().toString())
			.containsExactly(NAME + ".yaml", "backups.crd.kubereconciler.dev.yaml");
		assertThat(Files.readString(written.get(0)))
			.isEqualTo(this.generator.yaml(List.of(DatabaseV1.class, DatabaseV1alpha1.class), webhook));
		assertThat(Files.readString(written.get(1))).isEqualTo(this.generator.yaml(Backup.class));
		assertThat(CrdGenerator.byCrd(List.of(DatabaseV1alpha1.class, Backup.class, DatabaseV1.class))).containsExactly(
				Map.entry(NAME, List.<Class<?>>of(DatabaseV1alpha1.class, DatabaseV1.class)),
				Map.entry("backups.crd.kubereconciler.dev", List.<Class<?>>of(Backup.class)));
	}

	@Test
	void aWebhookForACrdOfNoClassIsRefused(@TempDir Path directory) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.write(directory, List.of(Backup.class),
					Map.of(NAME, WebhookClientConfig.url("https://example.com/convert"))))
			.withMessage("A conversion webhook is given for the CRD " + NAME
					+ ", but no model class declares it; the CRDs are [backups.crd.kubereconciler.dev]");
	}

	@Test
	void aCrdFileIsWaitedForByItsStorageVersion() {
		Crd read = Crd.of(JsonParser.parseString(this.crd.toString()).getAsJsonObject(), "test");
		assertThat(read.version()).isEqualTo("v1");
		Crd alphaStored = Crd.of(JsonParser
			.parseString(
					this.generator.crd(List.of(DatabaseV1beta1.class, StoredDatabaseV1alpha1.class), null).toString())
			.getAsJsonObject(), "test");
		assertThat(alphaStored.version()).isEqualTo("v1alpha1");
	}

	private static void assertJson(JsonNode actual, String expected) {
		assertThat(actual).isEqualTo(JSON.readTree(expected));
	}

	record AlphaSpec(@Nullable String engine, @Nullable String size) {

	}

	record Spec(@Nullable String engine, @Min(1) int replicas) {

	}

	record Status(@Nullable Boolean ready) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1alpha1", kind = "Database",
			plural = "databases")
	@PrinterColumn(name = "Size", jsonPath = ".spec.size")
	static class DatabaseV1alpha1 extends GenericResource<AlphaSpec, Void> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1beta1", kind = "Database", plural = "databases")
	@ShortNames("db")
	static class DatabaseV1beta1 extends GenericResource<Spec, Void> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Database", plural = "databases")
	@StorageVersion
	@ShortNames("db")
	@PrinterColumn(name = "Replicas", type = "integer", jsonPath = ".spec.replicas")
	static class DatabaseV1 extends GenericResource<Spec, Status> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1alpha1", kind = "Database",
			plural = "databases")
	@StorageVersion
	static class StoredDatabaseV1alpha1 extends GenericResource<AlphaSpec, Void> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v2", kind = "Database", plural = "databases")
	@StorageVersion
	static class StoredDatabaseV2 extends GenericResource<Spec, Void> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Database", plural = "databases")
	static class AnotherDatabaseV1 extends GenericResource<Spec, Void> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v2", kind = "Datastore", plural = "databases")
	static class OtherKindV2 extends GenericResource<Spec, Void> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v2", kind = "Database", plural = "databases",
			namespaced = false)
	static class ClusterDatabaseV2 extends GenericResource<Spec, Void> {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v2", kind = "Database", plural = "databases")
	@ShortNames("dbs")
	static class RenamedV2 extends GenericResource<Spec, Void> {

	}

}
