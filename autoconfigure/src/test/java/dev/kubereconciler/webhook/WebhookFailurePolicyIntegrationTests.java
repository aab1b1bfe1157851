package dev.kubereconciler.webhook;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.kubereconciler.autoconfigure.webhook.WebhookServerLifecycle;
import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.webhook.admission.AdmissionValidator;
import dev.kubereconciler.webhook.registration.WebhookConfigurations;
import dev.kubereconciler.webhook.registration.WebhookRegistration;
import dev.kubereconciler.webhook.server.SelfSignedCertificate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What the real API server does with a write when the webhook it must call does not
 * answer, as with an application that is down: {@code failurePolicy: Fail} refuses the
 * write naming the webhook, {@code Ignore} stores it unjudged. An application that stops
 * withdraws its registration, so that only a configuration left behind (by a process that
 * was killed) blocks writes.
 */
@KubernetesTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebhookFailurePolicyIntegrationTests {

	private static final String LABEL = "webhook-failure-policy-test";

	private static final String CONFIGURATION = "failure-policy-test";

	private static final String VALIDATING_WEBHOOK = "vconfigmap-v1.core.k8s.io";

	private static final String MUTATING_WEBHOOK = "mconfigmap-v1.core.k8s.io";

	ApiClient client;

	TestNamespace namespace;

	private final AtomicInteger names = new AtomicInteger();

	private ConfigurableApplicationContext context;

	@BeforeAll
	void labelNamespace() throws ApiException {
		// the API server chooses the namespaces it calls a webhook for by label
		new DynamicKubernetesApi("", "v1", "namespaces", this.client)
			.patch(this.namespace.name(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"metadata\":{\"labels\":{\"" + LABEL + "\":\"" + this.namespace.name() + "\"}}}"))
			.throwsApiException();
	}

	@AfterEach
	void removeConfigurations() {
		if (this.context != null) {
			this.context.close();
		}
		new WebhookRegistration(this.client).unregister(configurations("Fail", "https://127.0.0.1:1"));
	}

	@Test
	void failRefusesAWriteWhenTheWebhookCannotBeReachedNamingTheWebhook() {
		String url = "https://127.0.0.1:" + closedPort();
		register("Fail", url);
		ApiException refused = awaitRefusal();
		assertThat(refused.getCode()).isEqualTo(500);
		assertThat(refused.getResponseBody()).contains("\"reason\":\"InternalError\"")
			.contains("Internal error occurred: failed calling webhook \\\"" + VALIDATING_WEBHOOK
					+ "\\\": failed to call webhook: Post \\\"" + url + "/validate--v1-configmap?timeout=10s\\\"")
			.contains("connect: connection refused");
	}

	@Test
	void ignoreStoresAWriteWhenTheWebhookCannotBeReached() throws ApiException, IOException {
		String url = "https://127.0.0.1:" + closedPort();
		// Fail first, to see that the API server calls the webhook at all
		register("Fail", url);
		awaitRefusal();
		long failedOpen = failedOpen();
		register("Ignore", url);
		String stored = await().atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.until(this::tryCreate, (name) -> name != null);
		assertThat(core().readNamespacedConfigMap(stored, this.namespace.name()).execute().getData())
			.containsExactly(Map.entry("mode", "fast"));
		assertThat(failedOpen()).as("the API server's count of writes let through unjudged").isGreaterThan(failedOpen);
	}

	@Test
	void aStoppedApplicationWithdrawsItsWebhooksButConfigurationsLeftBehindRefuseWrites() throws ApiException {
		this.context = new SpringApplicationBuilder(ConfigMapWebhooksApplication.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=" + CONFIGURATION, "kube-reconciler.webhooks.port=0",
					"kube-reconciler.webhooks.register=true",
					"kube-reconciler.webhooks.namespace-selector." + LABEL + "=" + this.namespace.name())
			.run();
		AdmissionregistrationV1Api admission = new AdmissionregistrationV1Api(this.client);
		// the API server calls webhooks once its informer has seen their configurations
		Map<String, String> defaulted = await().atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.until(() -> data(tryCreate()), (data) -> data.containsKey("tier"));
		assertThat(defaulted).containsEntry("tier", "standard");
		V1ValidatingWebhookConfiguration validating = admission.readValidatingWebhookConfiguration(CONFIGURATION)
			.execute();
		V1MutatingWebhookConfiguration mutating = admission.readMutatingWebhookConfiguration(CONFIGURATION).execute();
		this.context.getBean(WebhookServerLifecycle.class).stop();
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> admission.readValidatingWebhookConfiguration(CONFIGURATION).execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> admission.readMutatingWebhookConfiguration(CONFIGURATION).execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404));
		// the API server drops the webhooks once its informer sees the deletions
		String unjudged = await().atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.until(this::tryCreate, (name) -> name != null);
		assertThat(data(unjudged)).doesNotContainKey("tier");
		// what a killed application leaves behind: configurations whose server is gone
		admission.createValidatingWebhookConfiguration(validating.metadata(new V1ObjectMeta().name(CONFIGURATION)))
			.execute();
		admission.createMutatingWebhookConfiguration(mutating.metadata(new V1ObjectMeta().name(CONFIGURATION)))
			.execute();
		ApiException refused = awaitRefusal();
		assertThat(refused.getCode()).isEqualTo(500);
		// the mutating webhooks are called first
		assertThat(refused.getResponseBody())
			.contains("Internal error occurred: failed calling webhook \\\"" + MUTATING_WEBHOOK + "\\\"")
			.contains("/mutate--v1-configmap?timeout=10s")
			.contains("connect: connection refused");
	}

	private void register(String failurePolicy, String url) {
		new WebhookRegistration(this.client)
			.register(Webhooks.builder().validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {
			}).build(), configurations(failurePolicy, url));
	}

	private WebhookConfigurations configurations(String failurePolicy, String url) {
		return new WebhookConfigurations(CONFIGURATION,
				WebhookClientConfig.url(url, SelfSignedCertificate.generate().caBundle()), failurePolicy,
				Duration.ofSeconds(10), new V1LabelSelector().matchLabels(Map.of(LABEL, this.namespace.name())),
				Map.of());
	}

	// the API server applies a configuration once its informer has seen it
	private ApiException awaitRefusal() {
		return await().atMost(Duration.ofSeconds(10)).until(() -> {
			try {
				tryCreate();
				return null;
			}
			catch (IllegalStateException ex) {
				return (ApiException) ex.getCause();
			}
		}, (refusal) -> refusal != null);
	}

	/**
	 * Create a ConfigMap, returning its name.
	 */
	private String tryCreate() {
		String name = "write-" + this.names.incrementAndGet();
		try {
			core()
				.createNamespacedConfigMap(this.namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("mode", "fast")))
				.execute();
			return name;
		}
		catch (ApiException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private Map<String, String> data(String name) throws ApiException {
		return core().readNamespacedConfigMap(name, this.namespace.name()).execute().getData();
	}

	private long failedOpen() throws IOException {
		String series = "apiserver_admission_webhook_fail_open_count{name=\"" + VALIDATING_WEBHOOK
				+ "\",type=\"validating\"} ";
		try (Response response = this.client.getHttpClient()
			.newCall(new Request.Builder().url(this.client.getBasePath() + "/metrics").build())
			.execute()) {
			return response.body()
				.string()
				.lines()
				.filter((line) -> line.startsWith(series))
				.mapToLong((line) -> Long.parseLong(line.substring(series.length()).trim()))
				.sum();
		}
	}

	private CoreV1Api core() {
		return new CoreV1Api(this.client);
	}

	private static int closedPort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 }))) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
