package dev.kubereconciler.crd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.crd.CrdFiles.Crd;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated CRD of {@link Specimen}, a field of every kind, on the real API server:
 * an object written through client-java reads back unchanged, nothing pruned and nothing
 * refused, and each printer column has its field's type.
 */
@KubernetesTest
class CrdRoundTripIntegrationTests {

	ApiClient client;

	TestNamespace namespace;

	private GenericKubernetesApi<Specimen, CustomResourceList<Specimen>> specimens;

	@BeforeEach
	void installTheGeneratedCrd() {
		new CrdInstaller(this.client, "crd-round-trip-tests").install(List.of(generated(Specimen.class)));
		this.specimens = CustomResourceList.api(Specimen.class, this.client);
	}

	@Test
	void anObjectWithAValueInEveryFieldReadsBackUnchanged() {
		Specimen.Spec spec = everyField("bytes, \u0000 and all".getBytes(StandardCharsets.UTF_8));
		KubernetesApiResponse<Specimen> created = this.specimens.create(specimen("every-field", spec));
		assertThat(created.isSuccess()).as("created: %s", created.getStatus()).isTrue();
		Specimen.Spec read = this.specimens.get(this.namespace.name(), "every-field").getObject().getSpec();
		assertThat(read).as("the spec read back").isNotNull();
		assertThat(read.settings()).as("settings").isEqualTo(spec.settings());
		assertThat(read.anything()).as("anything").isEqualTo(spec.anything());
		assertThat(read.payload()).as("payload").isEqualTo(spec.payload());
		assertThat(read.labels()).as("labels").isEqualTo(spec.labels());
		assertThat(read.endpoints()).as("endpoints").isEqualTo(spec.endpoints());
		assertThat(read.replicas()).as("replicas").isEqualTo(spec.replicas());
		assertThat(read.count()).as("count").isEqualTo(spec.count());
		assertThat(read.total()).as("total").isEqualTo(spec.total());
		assertThat(read.ratio()).as("ratio").isEqualTo(spec.ratio());
		assertThat(read.enabled()).as("enabled").isEqualTo(spec.enabled());
		assertThat(read.since()).as("since").isEqualTo(spec.since());
		assertThat(read.day()).as("day").isEqualTo(spec.day());
		assertThat(read.memory()).as("memory").isEqualTo(spec.memory());
		assertThat(read.port()).as("port").isEqualTo(spec.port());
		assertThat(read.primary()).as("primary").isEqualTo(spec.primary());
		assertThat(read.mode()).as("mode").isEqualTo(spec.mode());
		// and on the wire: the server stored every field client-java sent
		// the server sorts a map's keys
		assertThat(JsonParser.parseString(this.client.getJSON().serialize(read)))
			.isEqualTo(JsonParser.parseString(this.client.getJSON().serialize(spec)));
	}

	@Test
	void anUntypedMapKeepsTheEntriesTheServerWouldHavePruned() {
		// the example, written as a user writes it, with an int
		Map<String, Object> settings = Map.of("limits", Map.of("cpu", 2), "level", "debug");
		Specimen.Spec spec = new Specimen.Spec(settings, null, null, null, null, null, 0, 0, 0, false, null, null, null,
				null, null, null);
		assertThat(this.specimens.create(specimen("untyped", spec)).isSuccess()).isTrue();
		JsonObject stored = raw("untyped").getAsJsonObject("spec");
		assertThat(stored.get("settings"))
			.isEqualTo(JsonParser.parseString("{\"limits\":{\"cpu\":2},\"level\":\"debug\"}"));
	}

	@Test
	void eachPrinterColumnHasItsFieldsType() {
		// no bytes, so that the object is stored even where the bytes are not
		assertThat(this.specimens.create(specimen("listed", everyField(null))).isSuccess()).isTrue();
		JsonObject table = table();
		Map<String, String> types = new LinkedHashMap<>();
		table.getAsJsonArray("columnDefinitions")
			.forEach((column) -> types.put(column.getAsJsonObject().get("name").getAsString(),
					column.getAsJsonObject().get("type").getAsString()));
		assertThat(types).containsExactly(Map.entry("Name", "string"), Map.entry("Count", "integer"),
				Map.entry("Total", "integer"), Map.entry("Ratio", "number"), Map.entry("Enabled", "boolean"),
				Map.entry("Since", "date"), Map.entry("Mode", "string"), Map.entry("Memory", "string"),
				Map.entry("Host", "string"), Map.entry("Age", "date"));
		JsonArray cells = table.getAsJsonArray("rows").get(0).getAsJsonObject().getAsJsonArray("cells");
		// the server gives a number column's cell as a number, not as text
		assertThat(cells.get(1).getAsJsonPrimitive().isNumber()).as("Count: %s", cells.get(1)).isTrue();
		assertThat(cells.get(1).getAsLong()).isEqualTo(3);
		assertThat(cells.get(2).getAsLong()).isEqualTo(5_000_000_000L);
		assertThat(cells.get(3).getAsDouble()).isEqualTo(0.25);
		assertThat(cells.get(4).getAsJsonPrimitive().isBoolean()).as("Enabled: %s", cells.get(4)).isTrue();
	}

	private static Specimen.Spec everyField(byte @Nullable [] payload) {
		Map<String, Object> settings = new LinkedHashMap<>();
		// Gson reads every number of an untyped value as a Double
		settings.put("limits", Map.of("cpu", 2.0, "memory", "1Gi"));
		settings.put("level", "debug");
		settings.put("flags", List.of(true, "x", 1.5));
		// in UTC, as client-java writes any OffsetDateTime's local time followed by Z
		// (docs/custom-resources.md)
		Specimen.Endpoint primary = new Specimen.Endpoint("db-0", 5432, List.of("primary"));
		Specimen.Endpoint replica = new Specimen.Endpoint("db-1", 5433, List.of("replica", "read-only"));
		return new Specimen.Spec(settings, Map.of("any", List.of("json", 3.0)), payload, Map.of("team", "storage"),
				Map.of("west", replica), List.of(primary, replica), 3, 5_000_000_000L, 0.25, true,
				OffsetDateTime.of(2026, 11, 27, 8, 30, 15, 123_000_000, ZoneOffset.UTC), LocalDate.of(2026, 2, 28),
				Quantity.fromString("512Mi"), new IntOrString("postgres"), primary, Specimen.Mode.STANDBY);
	}

	private Specimen specimen(String name, Specimen.Spec spec) {
		Specimen specimen = new Specimen();
		specimen.setMetadata(new V1ObjectMeta().name(name).namespace(this.namespace.name()));
		specimen.setSpec(spec);
		return specimen;
	}

	private JsonObject raw(String name) {
		return get("/" + name, "application/json");
	}

	private JsonObject table() {
		return get("", "application/json;as=Table;v=v1;g=meta.k8s.io");
	}

	private JsonObject get(String path, String accept) {
		Request request = new Request.Builder()
			.url(this.client.getBasePath() + "/apis/crd.kubereconciler.dev/v1/namespaces/" + this.namespace.name()
					+ "/specimens" + path)
			.header("Accept", accept)
			.build();
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			JsonElement body = JsonParser.parseString(response.body().string());
			assertThat(response.code()).as("GET %s: %s", path, body).isEqualTo(200);
			return body.getAsJsonObject();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static Crd generated(Class<?>... versions) {
		return Crd.of(
				JsonParser.parseString(new CrdGenerator().crd(List.of(versions), null).toString()).getAsJsonObject(),
				"CrdGenerator of " + List.of(versions));
	}

}
