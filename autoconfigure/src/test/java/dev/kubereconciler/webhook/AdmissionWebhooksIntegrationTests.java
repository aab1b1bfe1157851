package dev.kubereconciler.webhook;

import java.util.Map;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.ApiResponse;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.kubereconciler.autoconfigure.webhook.WebhookServerLifecycle;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Admission webhooks against the real API server: the application serves a validator and
 * a defaulter of ConfigMaps on loopback over HTTPS with a self-signed certificate, and
 * registers them, scoped to this class's namespace, so that the API server calls them on
 * every write there.
 */
@KubernetesTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdmissionWebhooksIntegrationTests {

	ApiClient client;

	TestNamespace namespace;

	private ConfigurableApplicationContext context;

	private CoreV1Api core;

	@BeforeAll
	void start() throws ApiException {
		this.core = new CoreV1Api(this.client);
		// the API server chooses the namespaces it calls a webhook for by label
		new DynamicKubernetesApi("", "v1", "namespaces", this.client)
			.patch(this.namespace.name(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"metadata\":{\"labels\":{\"webhooks-test\":\"" + this.namespace.name() + "\"}}}"))
			.throwsApiException();
		this.context = new SpringApplicationBuilder(ConfigMapWebhooksApplication.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=admission-webhooks-test", "kube-reconciler.webhooks.port=0",
					"kube-reconciler.webhooks.register=true",
					"kube-reconciler.webhooks.namespace-selector.webhooks-test=" + this.namespace.name())
			.run();
	}

	@AfterAll
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void anInvalidObjectIsDeniedWithTheValidatorsMessage() {
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> create("slow", Map.of("mode", "slow"), false))
			.satisfies((ex) -> {
				assertThat(ex.getCode()).isEqualTo(403);
				assertThat(ex.getResponseBody()).contains("denied the request: mode 'slow' is retired: use 'fast'");
			});
	}

	@Test
	void aValidObjectPassesAndTheDefaultIsStored() throws ApiException {
		create("valid", Map.of("mode", "fast"), false);
		V1ConfigMap stored = this.core.readNamespacedConfigMap("valid", this.namespace.name()).execute();
		assertThat(stored.getData()).containsEntry("mode", "fast").containsEntry("tier", "standard");
	}

	@Test
	void aWarningReachesTheClient() throws ApiException {
		ApiResponse<V1ConfigMap> response = create("legacy", Map.of("legacy", "yes"), false);
		assertThat(response.getHeaders().get("Warning")).singleElement()
			.asString()
			.contains("'legacy' is ignored and will be refused in v2");
	}

	@Test
	void anUpdateSeesTheOldObject() throws ApiException {
		create("owned", Map.of("owner", "alice"), false);
		KubernetesApiResponse<V1ConfigMap> refused = mergePatch("owned", "{\"data\":{\"owner\":\"bob\"}}");
		assertThat(refused.getHttpStatusCode()).isEqualTo(403);
		assertThat(refused.getStatus().getMessage()).contains("owner cannot change from alice to bob");
		mergePatch("owned", "{\"data\":{\"mode\":\"fast\"}}").throwsApiException();
		assertThat(this.core.readNamespacedConfigMap("owned", this.namespace.name()).execute().getData())
			.containsEntry("owner", "alice")
			.containsEntry("mode", "fast");
	}

	@Test
	void aDryRunIsJudgedAndDefaultedButWritesNothing() throws ApiException {
		ApiResponse<V1ConfigMap> response = create("dry", Map.of("mode", "fast"), true);
		assertThat(response.getData().getData()).containsEntry("tier", "standard");
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> this.core.readNamespacedConfigMap("dry", this.namespace.name()).execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404));
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> create("dry-slow", Map.of("mode", "slow"), true))
			.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("mode 'slow' is retired"));
	}

	@Test
	void aValidatorThatThrowsDeniesWithAClearMessage() {
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> create("explode", Map.of("mode", "explode"), false))
			.satisfies((ex) -> assertThat(ex.getResponseBody())
				.contains("ConfigMapValidator failed: IllegalStateException: the validator blew up on purpose")
				.doesNotContain("\\tat "));
	}

	@Test
	void theApplicationServesOnItsOwnPortAndRegistersBothConfigurations() throws ApiException {
		assertThat(this.context.getBean(WebhookServerLifecycle.class).getPort()).isPositive();
		AdmissionregistrationV1Api admission = new AdmissionregistrationV1Api(this.client);
		assertThat(admission.readValidatingWebhookConfiguration("admission-webhooks-test").execute().getWebhooks())
			.singleElement()
			.satisfies((webhook) -> {
				assertThat(webhook.getClientConfig().getUrl()).startsWith("https://127.0.0.1:")
					.endsWith("/validate--v1-configmap");
				assertThat(webhook.getRules().get(0).getOperations()).containsExactly("CREATE", "UPDATE");
			});
		assertThat(admission.readMutatingWebhookConfiguration("admission-webhooks-test").execute().getWebhooks())
			.singleElement()
			.satisfies((webhook) -> assertThat(webhook.getClientConfig().getUrl()).endsWith("/mutate--v1-configmap"));
	}

	private KubernetesApiResponse<V1ConfigMap> mergePatch(String name, String patch) {
		return new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", this.client)
			.patch(this.namespace.name(), name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch(patch));
	}

	private ApiResponse<V1ConfigMap> create(String name, Map<String, String> data, boolean dryRun) throws ApiException {
		V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(data);
		CoreV1Api.APIcreateNamespacedConfigMapRequest request = this.core
			.createNamespacedConfigMap(this.namespace.name(), configMap);
		if (dryRun) {
			request = request.dryRun("All");
		}
		return request.executeWithHttpInfo();
	}

}
