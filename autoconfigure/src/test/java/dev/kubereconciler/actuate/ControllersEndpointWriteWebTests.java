package dev.kubereconciler.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import dev.kubereconciler.actuate.ActuatorClient.Response;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The write operations of the {@code controllers} endpoint over HTTP, once
 * {@code management.endpoint.controllers.access=unrestricted} allows them, in an
 * application running against the test API server; keys are always shown.
 */
@KubernetesTest
@SpringBootTest(classes = FlakyControllerApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { FlakyControllerApplication.EXPOSE, FlakyControllerApplication.MANAGER_QPS,
				FlakyControllerApplication.MANAGER_BURST, FlakyControllerApplication.LIMITER,
				FlakyControllerApplication.BACKOFF, FlakyControllerApplication.FAST_DELAY,
				FlakyControllerApplication.SLOW_DELAY, FlakyControllerApplication.FAST_ATTEMPTS,
				FlakyControllerApplication.BUCKET, FlakyControllerApplication.BUCKET_QPS,
				FlakyControllerApplication.BUCKET_BURST,
				"kube-reconciler.controllers.flaky.label-selector=" + FlakyControllerApplication.LABEL
						+ "=endpoint-writes",
				"management.endpoint.controllers.access=unrestricted",
				"management.endpoint.controllers.show-items=always" })
@DirtiesContext
class ControllersEndpointWriteWebTests {

	@LocalServerPort
	private int port;

	private ApiClient client;

	private TestNamespace namespace;

	private ActuatorClient actuator;

	@BeforeEach
	void failBrokenTwice() throws ApiException {
		this.actuator = new ActuatorClient(this.port);
		create("broken");
		await().atMost(Duration.ofSeconds(30)).until(() -> retries(this.namespace + "/broken") == 2);
	}

	@Test
	void pauseAndResume() {
		Response paused = this.actuator.post("/controllers/flaky/pause", "{}");
		assertThat(paused.status()).isEqualTo(200);
		assertThat(paused.<String>read("$.state")).isEqualTo("paused");
		assertThat(this.actuator.get("/controllers").<String>read("$.controllers.flaky.state")).isEqualTo("paused");
		Response resumed = this.actuator.post("/controllers/flaky/resume", "{}");
		assertThat(resumed.status()).isEqualTo(200);
		assertThat(resumed.<String>read("$.state")).isEqualTo("running");
	}

	@Test
	void forgetClearsTheBackoffOfOneKey() throws ApiException {
		create("forget-me");
		String key = this.namespace + "/forget-me";
		await().atMost(Duration.ofSeconds(30)).until(() -> retries(key) == 1);
		Response forgot = this.actuator.post("/controllers/flaky/forget", "{\"key\":\"" + key + "\"}");
		assertThat(forgot.status()).isEqualTo(200);
		Response details = this.actuator.get("/controllers/flaky");
		assertThat(details.<List<String>>read("$.items[*].key")).containsExactly(this.namespace + "/broken");
		// the limiter no longer knows the key; the count of what happened stays
		assertThat(details.<Integer>read("$.summary.rateLimiter.children[0].live.trackedItems")).isEqualTo(1);
		assertThat(details.<Integer>read("$.summary.retries")).isGreaterThanOrEqualTo(3);
	}

	@Test
	void retuneTheControllerBucketAndTheManagerBucket() {
		Response controller = this.actuator.post("/controllers/flaky/retune", "{\"qps\":5,\"burst\":10}");
		assertThat(controller.status()).isEqualTo(200);
		assertThat(controller.<Map<String, Object>>read("$.rateLimiter.children[1].config"))
			.isEqualTo(Map.of("qps", 5.0, "burst", 10));
		Response manager = this.actuator.post("/controllers", "{\"qps\":2.5,\"burst\":3}");
		assertThat(manager.status()).isEqualTo(200);
		assertThat(manager.<Map<String, Object>>read("$.rateLimiter.config")).isEqualTo(Map.of("qps", 2.5, "burst", 3));
		Response burstOnly = this.actuator.post("/controllers", "{\"burst\":4}");
		assertThat(burstOnly.<Map<String, Object>>read("$.rateLimiter.config"))
			.isEqualTo(Map.of("qps", 2.5, "burst", 4));
	}

	@Test
	void badArgumentsAreBadRequestsWithAMessageAndChangeNothing() {
		String before = state();
		assertBadRequest(this.actuator.post("/controllers/flaky/retune", "{\"qps\":0,\"burst\":50}"),
				"qps must be greater than 0, was 0.0");
		assertBadRequest(this.actuator.post("/controllers/flaky/retune", "{\"burst\":2.5}"),
				"burst must be a whole number, was '2.5'");
		assertBadRequest(this.actuator.post("/controllers/flaky/retune", "{\"qps\":\"fast\"}"),
				"qps must be a number, was 'fast'");
		assertBadRequest(this.actuator.post("/controllers/flaky/retune", "{}"), "retune needs 'qps', 'burst' or both");
		assertBadRequest(this.actuator.post("/controllers", "{\"qps\":-1}"), "qps must be greater than 0, was -1.0");
		assertBadRequest(this.actuator.post("/controllers", "{}"), "retune needs 'qps', 'burst' or both");
		assertBadRequest(this.actuator.post("/controllers/flaky/pause", "{\"qps\":1}"), "pause takes no arguments");
		assertBadRequest(this.actuator.post("/controllers/flaky/forget", "{}"),
				"forget needs a 'key' such as namespace/name");
		assertBadRequest(this.actuator.post("/controllers/flaky/forget", "{\"key\":\"a/b/c\"}"),
				"'a/b/c' is not a key; write namespace/name, or name for a cluster-scoped object");
		assertBadRequest(this.actuator.post("/controllers/flaky/restart", "{}"),
				"Unknown action 'restart'; use pause, resume, forget, retune, reconcile-all or namespaces");
		assertBadRequest(this.actuator.post("/controllers/flaky/namespaces", "{}"),
				"namespaces needs 'namespaces', such as \"team-a,team-b\", or \"\" for all namespaces");
		assertBadRequest(this.actuator.post("/controllers/flaky/namespaces", "{\"namespaces\":\"Bad_NS\"}"),
				"Controller 'flaky': 'Bad_NS' is not a namespace name; use an RFC 1123 label such as 'team-a' "
						+ "(lower-case letters, digits and '-', at most 63 characters)");
		assertBadRequest(this.actuator.post("/controllers/nope/pause", "{}"),
				"No controller named 'nope'; there are [flaky]");
		assertThat(state()).isEqualTo(before);
	}

	private String state() {
		Response response = this.actuator.get("/controllers");
		return response.read("$.controllers.flaky.state") + " "
				+ response.read("$.controllers.flaky.rateLimiter.children[1].config") + " "
				+ response.read("$.manager.rateLimiter.config");
	}

	private static void assertBadRequest(Response response, String message) {
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.<Map<String, Object>>read("$"))
			.isEqualTo(Map.of("status", 400, "error", "Bad Request", "message", message));
	}

	private void create(String name) throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		boolean exists = core.listNamespacedConfigMap(this.namespace.name())
			.execute()
			.getItems()
			.stream()
			.anyMatch((configMap) -> configMap.getMetadata().getName().equals(name));
		if (!exists) {
			core.createNamespacedConfigMap(this.namespace.name(), new V1ConfigMap().metadata(
					new V1ObjectMeta().name(name).labels(Map.of(FlakyControllerApplication.LABEL, "endpoint-writes"))))
				.execute();
		}
	}

	private int retries(String key) {
		List<Integer> retries = this.actuator.get("/controllers/flaky")
			.read("$.items[?(@.key == '" + key + "')].retries");
		return retries.isEmpty() ? 0 : retries.get(0);
	}

}
