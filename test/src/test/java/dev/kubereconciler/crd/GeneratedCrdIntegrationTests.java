package dev.kubereconciler.crd;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.PatchOptions;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The generated CRD of {@link Backup} on the real API server: accepted and established,
 * its rules enforced by the server, its defaults applied and its printer columns served.
 */
@KubernetesTest
class GeneratedCrdIntegrationTests {

	private static final String GROUP = "crd.kubereconciler.dev";

	private static final String VERSION = "v1alpha1";

	private static final String NAME = "backups." + GROUP;

	ApiClient client;

	TestNamespace namespace;

	private DynamicKubernetesApi backups;

	@BeforeEach
	void installTheGeneratedCrd() {
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client);
		PatchOptions options = new PatchOptions();
		options.setFieldManager("generated-crd-tests");
		options.setForce(true);
		KubernetesApiResponse<DynamicKubernetesObject> applied = crds.patch(NAME, V1Patch.PATCH_FORMAT_APPLY_YAML,
				new V1Patch(new CrdGenerator().yaml(Backup.class)), options);
		assertThat(applied.isSuccess()).as("the API server accepts the CRD: %s", applied.getStatus()).isTrue();
		await("CRD " + NAME + " established").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> isEstablished(crds.get(NAME)));
		this.backups = new DynamicKubernetesApi(GROUP, VERSION, "backups", this.client);
		// established comes a moment before the resource is served
		await("backups served").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.backups.list(this.namespace.name()).isSuccess());
	}

	@Test
	void theGeneratedCrdIsAcceptedAndEstablished() {
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client);
		KubernetesApiResponse<DynamicKubernetesObject> crd = crds.get(NAME);
		assertThat(isEstablished(crd)).isTrue();
		assertThat(crd.getObject().getRaw().getAsJsonObject("status").toString())
			.contains("{\"type\":\"NamesAccepted\",\"status\":\"True\"");
	}

	@Test
	void aValidObjectIsStoredWithItsDefaults() {
		KubernetesApiResponse<DynamicKubernetesObject> created = create("valid", """
				{"database": "orders", "replicas": 2, "storage": "10Gi", "port": "postgres", "targets": ["a", "b"],
				 "options": {"anything": {"goes": true}}, "window": {"start": 1, "end": 5}}""");
		assertThat(created.isSuccess()).as("created: %s", created.getStatus()).isTrue();
		JsonObject spec = created.getObject().getRaw().getAsJsonObject("spec");
		assertThat(spec.get("retentionDays").getAsInt()).isEqualTo(7);
		assertThat(spec.get("schedule").getAsString()).isEqualTo("daily");
		assertThat(spec.getAsJsonObject("options").toString()).isEqualTo("{\"anything\":{\"goes\":true}}");
	}

	@Test
	void aValueBelowMinIsRefused() {
		assertRefused(create("too-short", "{\"database\": \"orders\", \"retentionDays\": 0}"), "spec.retentionDays",
				"should be greater than or equal to 1");
	}

	@Test
	void aValueNotMatchingThePatternIsRefused() {
		assertRefused(create("bad-name", "{\"database\": \"Orders_DB\"}"), "spec.database",
				"should match '^[a-z][a-z0-9-]*$'");
	}

	@Test
	void aMissingRequiredFieldIsRefused() {
		assertRefused(create("no-database", "{\"replicas\": 1}"), "spec.database", "Required value");
	}

	@Test
	void anObjectBreakingACelRuleIsRefused() {
		assertRefused(create("closed-window", "{\"database\": \"orders\", \"window\": {\"start\": 6, \"end\": 2}}"),
				"spec.window", "start must come before end");
	}

	@Test
	void printerColumnsAppearInATable() throws IOException {
		assertThat(create("listed", "{\"database\": \"orders\", \"retentionDays\": 3}").isSuccess()).isTrue();
		Request request = new Request.Builder()
			.url(this.client.getBasePath() + "/apis/" + GROUP + "/" + VERSION + "/namespaces/" + this.namespace.name()
					+ "/backups")
			.header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
			.build();
		JsonObject table;
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			table = JsonParser.parseString(response.body().string()).getAsJsonObject();
		}
		assertThat(table.get("kind").getAsString()).isEqualTo("Table");
		List<String> columns = new ArrayList<>();
		table.getAsJsonArray("columnDefinitions")
			.forEach((column) -> columns.add(column.getAsJsonObject().get("name").getAsString()));
		assertThat(columns).containsExactly("Name", "Database", "Retention", "Phase");
		JsonArray cells = table.getAsJsonArray("rows").get(0).getAsJsonObject().getAsJsonArray("cells");
		assertThat(cells.get(0).getAsString()).isEqualTo("listed");
		assertThat(cells.get(1).getAsString()).isEqualTo("orders");
		assertThat(cells.get(2).getAsInt()).isEqualTo(3);
	}

	private KubernetesApiResponse<DynamicKubernetesObject> create(String name, String spec) {
		JsonObject raw = JsonParser
			.parseString(
					"""
							{"apiVersion": "%s/%s", "kind": "Backup", "metadata": {"name": "%s", "namespace": "%s"}, "spec": %s}"""
						.formatted(GROUP, VERSION, name, this.namespace.name(), spec))
			.getAsJsonObject();
		return this.backups.create(new DynamicKubernetesObject(raw));
	}

	private static void assertRefused(KubernetesApiResponse<DynamicKubernetesObject> response, String field,
			String reason) {
		assertThat(response.getHttpStatusCode()).as("the answer to an invalid object").isEqualTo(422);
		assertThat(response.getStatus().getMessage()).contains(field).contains(reason);
	}

	private static boolean isEstablished(KubernetesApiResponse<DynamicKubernetesObject> crd) {
		if (!crd.isSuccess() || !crd.getObject().getRaw().has("status")) {
			return false;
		}
		JsonElement conditions = crd.getObject().getRaw().getAsJsonObject("status").get("conditions");
		if (conditions == null) {
			return false;
		}
		for (JsonElement condition : conditions.getAsJsonArray()) {
			if ("Established".equals(condition.getAsJsonObject().get("type").getAsString())) {
				return "True".equals(condition.getAsJsonObject().get("status").getAsString());
			}
		}
		return false;
	}

}
