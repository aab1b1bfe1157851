package dev.kubereconciler.crd;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.kubereconciler.model.ResourceCoordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The schema of each kind of field as client-java writes it, read from {@link Specimen},
 * and the refusal, naming the field and the fix, of a type client-java cannot write.
 */
class CrdFieldKindsTests {

	private static final String SPEC = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final CrdGenerator generator = new CrdGenerator();

	private final JsonNode specimen = this.generator.crd(Specimen.class);

	@Test
	void anUntypedMapKeepsEveryEntry() {
		assertJson(this.specimen.at(SPEC + "/settings"),
				"{\"type\": \"object\", \"x-kubernetes-preserve-unknown-fields\": true}");
	}

	@Test
	void anObjectKeepsAnyValue() {
		assertJson(this.specimen.at(SPEC + "/anything"), "{\"x-kubernetes-preserve-unknown-fields\": true}");
	}

	@Test
	void bytesAreABase64String() {
		assertJson(this.specimen.at(SPEC + "/payload"), "{\"type\": \"string\", \"format\": \"byte\"}");
	}

	@Test
	void typedMapsAndListsDescribeTheirValues() {
		assertJson(this.specimen.at(SPEC + "/labels"),
				"{\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}}");
		assertJson(this.specimen.at(SPEC + "/endpoints/additionalProperties"), """
				{"type": "object", "properties": {"host": {"type": "string"},
				 "port": {"type": "integer", "format": "int32"},
				 "tags": {"type": "array", "items": {"type": "string"}}}}""");
		assertThat(this.specimen.at(SPEC + "/replicas/items"))
			.isEqualTo(this.specimen.at(SPEC + "/endpoints/additionalProperties"));
		assertJson(this.specimen.at(SPEC + "/day"), "{\"type\": \"string\", \"format\": \"date\"}");
	}

	@Test
	void anOptionalIsRefusedNamingTheFieldAndTheFix() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(WithOptional.class))
			.withMessageContaining("Cannot write the CRD of " + WithOptional.class.getName())
			.withMessageContaining("the field " + OptionalSpec.class.getName() + ".note")
			.withMessageContaining("java.util.Optional<java.lang.String>")
			.withMessageContaining("client-java's JSON cannot")
			.withMessageContaining("declare it java.lang.String, null when absent");
	}

	@Test
	void anInstantIsRefusedNamingTheFieldAndTheFix() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(WithInstant.class))
			.withMessageContaining("the field " + InstantSpec.class.getName() + ".at")
			.withMessageContaining("java.time.Instant")
			.withMessageContaining("declare it java.time.OffsetDateTime");
	}

	@Test
	void aLocalDateTimeIsRefusedNamingTheFieldAndTheFix() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(WithLocalDateTime.class))
			.withMessageContaining("the field " + LocalDateTimeSpec.class.getName() + ".at")
			.withMessageContaining("declare it java.time.OffsetDateTime");
	}

	@Test
	void aListOfDurationsIsRefusedNamingTheFieldAndTheFix() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(WithDurations.class))
			.withMessageContaining("the field " + DurationsSpec.class.getName() + ".timeouts")
			.withMessageContaining("java.util.List<java.time.Duration>")
			.withMessageContaining("a String such as \"30s\"");
	}

	@Test
	void aMapOfAnUnwritableTypeIsRefusedNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.crd(WithThreads.class))
			.withMessageContaining("the field " + ThreadsSpec.class.getName() + ".threads")
			.withMessageContaining("java.util.Map<java.lang.String, java.lang.Thread>")
			.withMessageContaining("a class of such fields");
	}

	private static void assertJson(JsonNode actual, String expected) {
		assertThat(actual).isEqualTo(JSON.readTree(expected));
	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "WithOptional",
			plural = "withoptionals")
	static class WithOptional extends GenericResource<OptionalSpec, Void> {

	}

	record OptionalSpec(@Nullable Optional<String> note) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "WithInstant",
			plural = "withinstants")
	static class WithInstant extends GenericResource<InstantSpec, Void> {

	}

	record InstantSpec(@Nullable Instant at) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "WithLocalDateTime",
			plural = "withlocaldatetimes")
	static class WithLocalDateTime extends GenericResource<Void, LocalDateTimeSpec> {

	}

	record LocalDateTimeSpec(@Nullable LocalDateTime at) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "WithDurations",
			plural = "withdurations")
	static class WithDurations extends GenericResource<DurationsSpec, Void> {

	}

	record DurationsSpec(@Nullable List<Duration> timeouts) {

	}

	@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "WithThreads", plural = "withthreads")
	static class WithThreads extends GenericResource<ThreadsSpec, Void> {

	}

	record ThreadsSpec(@Nullable Map<String, Thread> threads) {

	}

}
