package dev.kubereconciler.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest.UseMainMethod;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sample.external.ExternalWidgetApi;
import dev.kubereconciler.sample.widget.Widget;
import dev.kubereconciler.sample.widget.WidgetReconciler;
import dev.kubereconciler.sample.widget.WidgetStatus;
import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End-to-end tests of the widget controller and the simulated external API, against the
 * test API server.
 */
@KubernetesTest
@SpringBootTest(useMainMethod = UseMainMethod.ALWAYS, properties = { "kube-reconciler.crds.apply=true",
		"sample.external-api.latency=2ms", "sample.external-api.failure-rate=0", "sample.external-api.flaky-failures=3",
		"sample.widgets.retry.base-delay=20ms", "sample.widgets.retry.max-delay=500ms", "sample.widgets.retry.qps=100",
		"sample.widgets.verify-period=1h", "kube-reconciler.manager.rate-limiter.qps=1000",
		"kube-reconciler.manager.rate-limiter.burst=1000", "kube-reconciler.webhooks.register=true",
		"kube-reconciler.webhooks.port=0", "kube-reconciler.controllers.widget.sources.external-widgets.period=200ms" })
@DirtiesContext
class WidgetControllerTests {

	private static final String NAMESPACE = TestObjects.uniqueNamespace("widgets");

	private ApiClient client;

	@Autowired
	private ExternalWidgetApi externalApi;

	@Autowired
	private ControllerRegistry controllers;

	@Autowired
	private MeterRegistry meterRegistry;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("kube-reconciler.controllers.widget.namespaces", () -> NAMESPACE);
		registry.add("kube-reconciler.controllers.configmap-mirror.namespaces", () -> NAMESPACE);
	}

	@BeforeAll
	static void createNamespace(ApiClient client) throws ApiException {
		TestObjects.createNamespace(client, NAMESPACE);
	}

	@AfterAll
	static void deleteNamespace(ApiClient client) throws ApiException {
		TestObjects.deleteNamespace(client, NAMESPACE);
	}

	@Test
	void provisionsAWidgetAndReportsItReady() throws ApiException {
		Widget created = widgets().create(TestObjects.widget(NAMESPACE, "blue", "blue", 3))
			.throwsApiException()
			.getObject();
		Widget ready = awaitPhase("blue", WidgetStatus.READY);
		assertThat(ready.getStatus().externalId()).startsWith("ext-");
		assertThat(ready.getStatus().observedGeneration()).isEqualTo(1L);
		assertThat(ready.getMetadata().getFinalizers()).containsExactly(WidgetReconciler.FINALIZER);
		assertThat(this.externalApi.calls(created.getMetadata().getUid())).isPositive();
	}

	@Test
	void aWidgetTheExternalApiLostIsProvisionedAgainOnceItsSourceNoticesWithoutARequeue() throws ApiException {
		widgets().create(TestObjects.widget(NAMESPACE, "lost", "teal", 2)).throwsApiException();
		String lostId = awaitPhase("lost", WidgetStatus.READY).getStatus().externalId();
		assertThat(this.controllers.controller("widget").definition().sources()).singleElement()
			.satisfies((source) -> assertThat(source.period()).isEqualTo(Duration.ofMillis(200)));
		this.externalApi.deprovision(lostId);
		// the poll runs every 200 ms: whether it first saw the widget before or after
		// the loss, the loss is a change
		await().untilAsserted(() -> {
			WidgetStatus status = read("lost").getStatus();
			assertThat(status.phase()).isEqualTo(WidgetStatus.READY);
			assertThat(status.externalId()).startsWith("ext-").isNotEqualTo(lostId);
		});
	}

	@Test
	void updatesTheExternalWidgetWhenTheSpecChanges() throws ApiException {
		widgets().create(TestObjects.widget(NAMESPACE, "growing", "green", 1)).throwsApiException();
		String externalId = awaitPhase("growing", WidgetStatus.READY).getStatus().externalId();
		widgets()
			.patch(NAMESPACE, "growing", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch("{\"spec\":{\"size\":42}}"))
			.throwsApiException();
		await().untilAsserted(() -> {
			WidgetStatus status = read("growing").getStatus();
			assertThat(status.observedGeneration()).isEqualTo(2L);
			assertThat(status.phase()).isEqualTo(WidgetStatus.READY);
			assertThat(status.externalId()).isEqualTo(externalId);
		});
		assertThat(this.externalApi.describe(externalId))
			.hasValueSatisfying((external) -> assertThat(external.size()).isEqualTo(42));
		// the settings dependent follows the spec too
		await().untilAsserted(() -> assertThat(
				new CoreV1Api(this.client).readNamespacedConfigMap("growing-widget", NAMESPACE).execute().getData())
			.containsEntry("size", "42")
			.containsEntry("color", "green"));
	}

	@Test
	void eachWidgetOwnsItsSettingsConfigMap() throws ApiException {
		Widget created = widgets().create(TestObjects.widget(NAMESPACE, "configured", "red", 5))
			.throwsApiException()
			.getObject();
		awaitPhase("configured", WidgetStatus.READY);
		V1ConfigMap settings = new CoreV1Api(this.client).readNamespacedConfigMap("configured-widget", NAMESPACE)
			.execute();
		assertThat(settings.getData()).containsEntry("color", "red").containsEntry("size", "5");
		assertThat(settings.getMetadata().getOwnerReferences()).singleElement()
			.satisfies((owner) -> assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid()));
		assertThat(settings.getMetadata().getLabels()).containsEntry("dependents.kubereconciler.dev/name", "settings");
	}

	@Test
	void retriesACursedWidgetWithBackoffAndReportsTheError() throws ApiException {
		Widget created = widgets().create(TestObjects.widget(NAMESPACE, "doomed", ExternalWidgetApi.CURSED, 13))
			.throwsApiException()
			.getObject();
		Widget failed = awaitPhase("doomed", WidgetStatus.ERROR);
		assertThat(failed.getStatus().message()).isEqualTo("the external API refuses cursed widgets");
		assertThat(failed.getStatus().externalId()).isNull();
		// every retry is one more paid call, and the limiter counts it
		await().untilAsserted(() -> {
			assertThat(this.externalApi.calls(created.getMetadata().getUid())).isGreaterThanOrEqualTo(4);
			assertThat(
					this.controllers.controller("widget").rateLimiter().numRequeues(new Request(NAMESPACE, "doomed")))
				.isGreaterThanOrEqualTo(3);
		});
		assertThat(read("doomed").getStatus().phase()).isEqualTo(WidgetStatus.ERROR);
	}

	@Test
	void aCursedWidgetGoesWithoutAPaidCallThatCouldWaitOutItsBackoff() throws ApiException {
		Widget created = widgets().create(TestObjects.widget(NAMESPACE, "cursed-to-go", ExternalWidgetApi.CURSED, 2))
			.throwsApiException()
			.getObject();
		Request request = new Request(NAMESPACE, "cursed-to-go");
		await().untilAsserted(() -> assertThat(this.controllers.controller("widget").rateLimiter().numRequeues(request))
			.isGreaterThanOrEqualTo(3));
		double deprovisions = deprovisionCalls();
		widgets().delete(NAMESPACE, "cursed-to-go").throwsApiException();
		await().untilAsserted(
				() -> assertThat(widgets().get(NAMESPACE, "cursed-to-go").getHttpStatusCode()).isEqualTo(404));
		// the API never held it: a call could only fail, and back off from its refusals
		assertThat(deprovisionCalls()).isEqualTo(deprovisions);
		assertThat(this.externalApi.calls(created.getMetadata().getUid())).isPositive();
	}

	private double deprovisionCalls() {
		return this.meterRegistry.find(ExternalWidgetApi.CALLS_METER)
			.tag("operation", "deprovision")
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	@Test
	void retriesAFlakyWidgetUntilTheExternalApiAcceptsIt() throws ApiException {
		Widget created = widgets().create(TestObjects.widget(NAMESPACE, "wobbly", ExternalWidgetApi.FLAKY, 5))
			.throwsApiException()
			.getObject();
		Widget ready = awaitPhase("wobbly", WidgetStatus.READY);
		assertThat(ready.getStatus().message()).isNull();
		// three refused calls, then the one that provisioned it
		assertThat(this.externalApi.calls(created.getMetadata().getUid())).isGreaterThanOrEqualTo(4);
		// success forgets the backoff, just after the status is written
		await().untilAsserted(() -> assertThat(
				this.controllers.controller("widget").rateLimiter().numRequeues(new Request(NAMESPACE, "wobbly")))
			.isZero());
	}

	@Test
	void deprovisionsTheExternalWidgetBeforeTheWidgetGoes() throws ApiException {
		widgets().create(TestObjects.widget(NAMESPACE, "doomed-to-go", "red", 7)).throwsApiException();
		String externalId = awaitPhase("doomed-to-go", WidgetStatus.READY).getStatus().externalId();
		widgets().delete(NAMESPACE, "doomed-to-go").throwsApiException();
		await().untilAsserted(
				() -> assertThat(widgets().get(NAMESPACE, "doomed-to-go").getHttpStatusCode()).isEqualTo(404));
		assertThat(this.externalApi.describe(externalId)).isEmpty();
	}

	@Test
	void deprovisionsWhatAReconcileProvisionedButNeverRecordedBeforeTheWidgetGoes() throws ApiException {
		String unrecorded = provisionedButNeverRecorded("unrecorded");
		widgets().delete(NAMESPACE, "unrecorded").throwsApiException();
		await()
			.untilAsserted(() -> assertThat(widgets().get(NAMESPACE, "unrecorded").getHttpStatusCode()).isEqualTo(404));
		assertThat(this.externalApi.describe(unrecorded)).isEmpty();
	}

	@Test
	void aWidgetProvisionedButNeverRecordedBeforeItsSpecChangedEndsReadyWithTheNewSpec() throws ApiException {
		provisionedButNeverRecorded("resized");
		widgets()
			.patch(NAMESPACE, "resized", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch("{\"spec\":{\"size\":5}}"))
			.throwsApiException();
		await().untilAsserted(() -> {
			Widget widget = read("resized");
			assertThat(widget.getStatus().phase()).isEqualTo(WidgetStatus.READY);
			assertThat(widget.getStatus().observedGeneration()).isEqualTo(widget.getMetadata().getGeneration());
			assertThat(this.externalApi.describe(widget.getStatus().externalId()))
				.hasValueSatisfying((external) -> assertThat(external.size()).isEqualTo(5));
		});
	}

	// a red widget of size 3 as a reconcile whose status write failed after its call
	// leaves it: the API holds a widget the status does not name, and the status names
	// one the API lost; returns the id of the one the API holds
	private String provisionedButNeverRecorded(String name) throws ApiException {
		Widget created = widgets().create(TestObjects.widget(NAMESPACE, name, "red", 3))
			.throwsApiException()
			.getObject();
		String recorded = awaitPhase(name, WidgetStatus.READY).getStatus().externalId();
		this.externalApi.deprovision(recorded);
		return this.externalApi.provision(created.getMetadata().getUid(), "red", 3).id();
	}

	@Test
	void theValidatingWebhookRefusesARepaint() throws ApiException {
		KubernetesApiResponse<Widget> large = widgets().create(TestObjects.widget(NAMESPACE, "painted", "blue", 90));
		assertThat(large.isSuccess()).isTrue();
		KubernetesApiResponse<Widget> repaint = widgets().patch(NAMESPACE, "painted",
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch("{\"spec\":{\"color\":\"pink\"}}"));
		assertThat(repaint.getHttpStatusCode()).isEqualTo(403);
		assertThat(repaint.getStatus().getMessage()).contains("spec.color cannot change from blue to pink");
		assertThat(read("painted").getSpec().color()).isEqualTo("blue");
	}

	@Test
	void theValidatingWebhookJudgesOnlyWhatAnUpdateChanges() throws Exception {
		CustomObjectsApi api = new CustomObjectsApi(this.client);
		Map<String, List<String>> created = api
			.createNamespacedCustomObject(Widget.GROUP, Widget.VERSION, NAMESPACE, Widget.PLURAL,
					TestObjects.widget(NAMESPACE, "billed", "blue", 90))
			.executeWithHttpInfo()
			.getHeaders();
		assertThat(warnings(created)).anySatisfy((warning) -> assertThat(warning).contains("large rate"));
		// a label leaves the size alone: the size's rule has nothing to say about it
		okhttp3.Request label = new okhttp3.Request.Builder()
			.url(this.client.getBasePath() + "/apis/" + Widget.GROUP + "/" + Widget.VERSION + "/namespaces/" + NAMESPACE
					+ "/" + Widget.PLURAL + "/billed")
			.patch(RequestBody.create("{\"metadata\":{\"labels\":{\"team\":\"blue\"}}}",
					MediaType.get("application/merge-patch+json")))
			.build();
		Map<String, List<String>> labelled;
		try (Response response = this.client.getHttpClient().newCall(label).execute()) {
			assertThat(response.code()).isEqualTo(200);
			labelled = response.headers().toMultimap();
		}
		assertThat(warnings(labelled)).isEmpty();
	}

	private static List<String> warnings(Map<String, List<String>> headers) {
		return headers.entrySet()
			.stream()
			.filter((header) -> "warning".equalsIgnoreCase(header.getKey()))
			.flatMap((header) -> header.getValue().stream())
			.toList();
	}

	@Test
	void theMutatingWebhookStoresColorsInLowerCase() throws ApiException {
		widgets().create(TestObjects.widget(NAMESPACE, "shouting", "GREEN", 3)).throwsApiException();
		assertThat(read("shouting").getSpec().color()).isEqualTo("green");
	}

	private Widget awaitPhase(String name, String phase) {
		return await().until(() -> read(name),
				(widget) -> widget.getStatus() != null && phase.equals(widget.getStatus().phase()));
	}

	private Widget read(String name) throws ApiException {
		return widgets().get(NAMESPACE, name).throwsApiException().getObject();
	}

	private GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets() {
		return TestObjects.widgets(this.client);
	}

}
