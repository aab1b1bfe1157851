package dev.kubereconciler.sample.conversion;

import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.webhook.KubeReconcilerWebhookAutoConfiguration;
import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdGenerator;
import dev.kubereconciler.crd.CrdInstaller;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestConfiguration;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A conversion webhook against the real API server: the Gadget CRD serves v1alpha1 and v1
 * and stores v1, the application converts between them, and every field survives a round
 * trip from either version through the other.
 */
@KubernetesTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConversionWebhookIntegrationTests {

	private static final String CRD = "gadgets." + GadgetV1.GROUP;

	ApiClient client;

	TestNamespace namespace;

	private ConfigurableApplicationContext context;

	@BeforeAll
	void start() {
		String yaml = new CrdGenerator().yaml(List.of(GadgetV1alpha1.class, GadgetV1.class));
		String json = new Gson().toJson(new Yaml().<Map<String, Object>>load(yaml));
		new CrdInstaller(this.client, "conversion-test")
			.install(List.of(new CrdFiles.Crd(CRD, GadgetV1.GROUP, "v1", "gadgets", json, "CrdGenerator")));
		this.context = new SpringApplicationBuilder(GadgetConversionApplication.class).web(WebApplicationType.NONE)
			// not the sample's application.yaml, which configures its controllers
			.properties("spring.config.name=gadget-conversion", "spring.application.name=gadget-conversion",
					"kube-reconciler.webhooks.port=0", "kube-reconciler.webhooks.register=true")
			.run();
	}

	@AfterAll
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void theCrdServesBothVersionsStoresV1AndConvertsByWebhook() {
		JsonObject crd = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client)
			.get(CRD)
			.getObject()
			.getRaw();
		JsonObject spec = crd.getAsJsonObject("spec");
		assertThat(spec.getAsJsonArray("versions"))
			.extracting((version) -> version.getAsJsonObject().get("name").getAsString() + " stored="
					+ version.getAsJsonObject().get("storage").getAsBoolean())
			.containsExactly("v1 stored=true", "v1alpha1 stored=false");
		JsonObject conversion = spec.getAsJsonObject("conversion");
		assertThat(conversion.get("strategy").getAsString()).isEqualTo("Webhook");
		assertThat(conversion.getAsJsonObject("webhook").getAsJsonObject("clientConfig").get("url").getAsString())
			.startsWith("https://127.0.0.1:")
			.endsWith("/convert");
	}

	@Test
	void anObjectCreatedAsV1alpha1ReadsBackAsV1AndAsV1alpha1() {
		create("v1alpha1", "created-alpha", """
				{"size":3,"color":"red","tags":["a","b"],"note":"handle with care"}""");
		JsonObject v1 = read("v1", "created-alpha");
		assertThat(v1.get("apiVersion").getAsString()).isEqualTo(GadgetV1.GROUP + "/v1");
		assertThat(v1.getAsJsonObject("spec")).isEqualTo(json("""
				{"dimensions":{"size":3},"paint":{"color":"red"},"tags":["a","b"]}"""));
		assertThat(annotations(v1)).containsEntry(GadgetConverter.NOTE, "handle with care");
		JsonObject alpha = read("v1alpha1", "created-alpha");
		assertThat(alpha.getAsJsonObject("spec")).isEqualTo(json("""
				{"size":3,"color":"red","tags":["a","b"],"note":"handle with care"}"""));
		assertThat(annotations(alpha)).doesNotContainKeys(GadgetConverter.NOTE, GadgetConverter.FINISH);
	}

	@Test
	void sizeSurvivesARoundTrip() {
		assertRoundTrip("size", "{\"size\":7}", "{\"dimensions\":{\"size\":7}}");
	}

	@Test
	void colorSurvivesARoundTrip() {
		assertRoundTrip("color", "{\"color\":\"teal\"}", "{\"paint\":{\"color\":\"teal\"}}");
	}

	@Test
	void tagsSurviveARoundTrip() {
		assertRoundTrip("tags", "{\"tags\":[\"x\",\"y\",\"z\"]}", "{\"tags\":[\"x\",\"y\",\"z\"]}");
	}

	@Test
	void theNoteOnlyV1alpha1HasSurvivesARoundTripThroughV1() {
		create("v1alpha1", "note", "{\"note\":\"fragile\"}");
		assertThat(read("v1", "note").getAsJsonObject("spec")).isEqualTo(json("{}"));
		assertThat(read("v1alpha1", "note").getAsJsonObject("spec")).isEqualTo(json("{\"note\":\"fragile\"}"));
	}

	@Test
	void theFinishOnlyV1HasSurvivesARoundTripThroughV1alpha1() {
		create("v1", "finish", "{\"paint\":{\"color\":\"black\",\"finish\":\"matte\"}}");
		JsonObject alpha = read("v1alpha1", "finish");
		assertThat(alpha.getAsJsonObject("spec")).isEqualTo(json("{\"color\":\"black\"}"));
		assertThat(annotations(alpha)).containsEntry(GadgetConverter.FINISH, "matte");
		// written back through v1alpha1, which has no finish, the finish is kept
		alpha.getAsJsonObject("spec").addProperty("size", 4);
		replace("v1alpha1", alpha);
		assertThat(read("v1", "finish").getAsJsonObject("spec"))
			.isEqualTo(json("{\"dimensions\":{\"size\":4},\"paint\":{\"color\":\"black\",\"finish\":\"matte\"}}"));
	}

	private void assertRoundTrip(String field, String alphaSpec, String v1Spec) {
		String fromAlpha = field + "-from-alpha";
		create("v1alpha1", fromAlpha, alphaSpec);
		assertThat(read("v1", fromAlpha).getAsJsonObject("spec")).isEqualTo(json(v1Spec));
		assertThat(read("v1alpha1", fromAlpha).getAsJsonObject("spec")).isEqualTo(json(alphaSpec));
		String fromV1 = field + "-from-v1";
		create("v1", fromV1, v1Spec);
		assertThat(read("v1alpha1", fromV1).getAsJsonObject("spec")).isEqualTo(json(alphaSpec));
		assertThat(read("v1", fromV1).getAsJsonObject("spec")).isEqualTo(json(v1Spec));
	}

	private void create(String version, String name, String spec) {
		JsonObject object = json("""
				{"apiVersion":"%s/%s","kind":"Gadget","metadata":{"name":"%s","namespace":"%s"},"spec":%s}"""
			.formatted(GadgetV1.GROUP, version, name, this.namespace.name(), spec));
		KubernetesApiResponse<DynamicKubernetesObject> response = api(version)
			.create(new DynamicKubernetesObject(object));
		assertThat(response.isSuccess()).as("create %s as %s: %s", name, version, response.getStatus()).isTrue();
	}

	private void replace(String version, JsonObject object) {
		KubernetesApiResponse<DynamicKubernetesObject> response = api(version)
			.update(new DynamicKubernetesObject(object));
		assertThat(response.isSuccess()).as("update as %s: %s", version, response.getStatus()).isTrue();
	}

	private JsonObject read(String version, String name) {
		KubernetesApiResponse<DynamicKubernetesObject> response = api(version).get(this.namespace.name(), name);
		assertThat(response.isSuccess()).as("read %s as %s: %s", name, version, response.getStatus()).isTrue();
		return response.getObject().getRaw();
	}

	private DynamicKubernetesApi api(String version) {
		return new DynamicKubernetesApi(GadgetV1.GROUP, version, "gadgets", this.client);
	}

	private static Map<String, String> annotations(JsonObject object) {
		JsonElement annotations = object.getAsJsonObject("metadata").get("annotations");
		if (annotations == null) {
			return Map.of();
		}
		return new Gson().fromJson(annotations, new com.google.gson.reflect.TypeToken<Map<String, String>>() {
		}.getType());
	}

	private static JsonObject json(String text) {
		return JsonParser.parseString(text).getAsJsonObject();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerWebhookAutoConfiguration.class })
	@Import(KubernetesTestConfiguration.class)
	static class GadgetConversionApplication {

		@Bean
		GadgetConverter gadgetConverter() {
			return new GadgetConverter();
		}

	}

}
