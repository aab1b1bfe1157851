package dev.kubereconciler.actuate;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Yaml;
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
 * The {@code controllers} endpoint, health and Prometheus metrics over HTTP, in an
 * application running against the test API server, with the endpoint's default, read-only
 * access and default show-items. A reconciler that always fails makes the counts move as
 * the limiters say: its first failure backs off 50 ms, its retry waits about 2 s at the
 * manager gate (0.5 qps), and its second failure waits about 1000 s for the controller
 * bucket's only token.
 */
@KubernetesTest
@SpringBootTest(classes = FlakyControllerApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { FlakyControllerApplication.EXPOSE, FlakyControllerApplication.HEALTH_DETAILS,
				FlakyControllerApplication.MANAGER_QPS, FlakyControllerApplication.MANAGER_BURST,
				FlakyControllerApplication.LIMITER, FlakyControllerApplication.BACKOFF,
				FlakyControllerApplication.FAST_DELAY, FlakyControllerApplication.SLOW_DELAY,
				FlakyControllerApplication.FAST_ATTEMPTS, FlakyControllerApplication.BUCKET,
				FlakyControllerApplication.BUCKET_QPS, FlakyControllerApplication.BUCKET_BURST,
				"kube-reconciler.controllers.flaky.label-selector=" + FlakyControllerApplication.LABEL
						+ "=endpoint-web" })
@DirtiesContext
class ControllersEndpointWebTests {

	@LocalServerPort
	private int port;

	private ApiClient client;

	private TestNamespace namespace;

	private ActuatorClient actuator;

	@BeforeEach
	void failOnce() throws ApiException {
		this.actuator = new ActuatorClient(this.port);
		CoreV1Api core = new CoreV1Api(this.client);
		if (core.listNamespacedConfigMap(this.namespace.name()).execute().getItems().isEmpty()) {
			core.createNamespacedConfigMap(this.namespace.name(), new V1ConfigMap().metadata(
					new V1ObjectMeta().name("broken").labels(Map.of(FlakyControllerApplication.LABEL, "endpoint-web"))))
				.execute();
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			Response controllers = this.actuator.get("/controllers");
			return controllers.<Integer>read("$.controllers.flaky.retries") == 2
					&& controllers.<Integer>read("$.controllers.flaky.queue.waiting") == 1;
		});
	}

	@Test
	void rbacIsServedAsYamlThatKubernetesModelsRead() throws IOException {
		Response response = this.actuator.get("/controllers/rbac");
		assertThat(response.status()).isEqualTo(200);
		List<Object> objects = Yaml.loadAll(response.body());
		// the flaky controller watches ConfigMaps in every namespace: a ClusterRole and
		// its binding
		assertThat(objects).hasSize(2);
		V1ClusterRole role = (V1ClusterRole) objects.get(0);
		assertThat(role.getRules()).singleElement().satisfies((rule) -> {
			assertThat(rule.getResources()).containsExactly("configmaps");
			assertThat(rule.getVerbs()).containsExactly("get", "list", "watch");
		});
		assertThat(((V1ClusterRoleBinding) objects.get(1)).getRoleRef().getName())
			.isEqualTo(role.getMetadata().getName());
		assertThat(this.actuator.get("/controllers/no-such-controller").status()).isEqualTo(404);
	}

	@Test
	void aFailingReconcilerMovesRetriesWaitingAndLimiterDelayBySource() {
		Response response = this.actuator.get("/controllers");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body()).doesNotContain("NaN", "Infinity");
		Map<String, Object> manager = response.read("$.manager");
		assertThat(manager).containsEntry("leader", true)
			.containsEntry("leaderElection", false)
			.containsEntry("appliesTo", List.of("event", "retry", "requeue-after"))
			.containsEntry("admitted", 2)
			// no max wait is configured, and the Actuator leaves nulls out
			.doesNotContainKey("maxWait");
		assertThat(response.<Map<String, Object>>read("$.manager.rateLimiter.config"))
			.isEqualTo(Map.of("qps", 0.5, "burst", 1));
		Map<String, Object> flaky = response.read("$.controllers.flaky");
		assertThat(flaky).containsEntry("watches", "v1/ConfigMap")
			.containsEntry("state", "running")
			.containsEntry("maxConcurrentReconciles", 1)
			.containsEntry("activeWorkers", 0)
			.containsEntry("queue", Map.of("depth", 0, "waiting", 1, "inFlight", 0, "depthByPriority", Map.of()))
			.containsEntry("retries", 2)
			.containsEntry("reconciles",
					Map.of("success", 0, "error", 2, "requeue", 0, "requeueAfter", 0, "terminal", 0));
		assertThat(response.<String>read("$.controllers.flaky.rateLimiter.type")).isEqualTo("max-of");
		assertThat(response.<Map<String, Object>>read("$.controllers.flaky.rateLimiter.children[0]"))
			.isEqualTo(Map.of("type", "fast-slow", "config",
					Map.of("fastDelay", "PT0.05S", "slowDelay", "PT0.1S", "maxFastAttempts", 1), "live",
					Map.of("trackedItems", 1), "children", List.of()));
		assertThat(response.<Map<String, Object>>read("$.controllers.flaky.rateLimiter.children[1].config"))
			.isEqualTo(Map.of("qps", 0.001, "burst", 1));
		// the second failure took the token that refills over 1000 s: the bucket is
		// in debt
		assertThat(response.number("$.controllers.flaky.rateLimiter.children[1].live.tokens")).isNegative()
			.isGreaterThan(-1.0);
		assertThat(response.<Integer>read("$.controllers.flaky.limiterDelay.count")).isEqualTo(3);
		assertThat(response.<Map<String, Object>>read("$.controllers.flaky.limiterDelay.bySource.backoff"))
			.isEqualTo(Map.of("count", 1, "totalSeconds", 0.05, "maxSeconds", 0.05));
		assertThat(response.<Integer>read("$.controllers.flaky.limiterDelay.bySource.manager.count")).isEqualTo(1);
		assertThat(response.number("$.controllers.flaky.limiterDelay.bySource.manager.totalSeconds")).isGreaterThan(0.0)
			.isLessThanOrEqualTo(2.0);
		assertThat(response.<Integer>read("$.controllers.flaky.limiterDelay.bySource.bucket.count")).isEqualTo(1);
		double bucket = response.number("$.controllers.flaky.limiterDelay.bySource.bucket.totalSeconds");
		assertThat(bucket).isGreaterThan(990.0).isLessThanOrEqualTo(1000.0);
		assertThat(response.number("$.controllers.flaky.limiterDelay.maxSeconds")).isEqualTo(bucket);
	}

	@Test
	void detailsListTheRetryingKeyAndTheLatestDecisionsWithKeysHiddenFromAnonymousCallers() {
		Response response = this.actuator.get("/controllers/flaky");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.<String>read("$.name")).isEqualTo("flaky");
		assertThat(response.<Integer>read("$.summary.retries")).isEqualTo(2);
		List<Map<String, Object>> items = response.read("$.items");
		assertThat(items).singleElement().satisfies((item) -> {
			assertThat(item).containsEntry("key", "******").containsEntry("retries", 2).containsEntry("numRequeues", 2);
			assertThat((String) item.get("nextAttemptIn")).matches("PT1[0-6]M[0-9.]+S");
		});
		assertThat(response.<List<String>>read("$.events[*].source")).containsExactly("bucket", "manager", "backoff");
		assertThat(response.<List<String>>read("$.events[*].cause")).containsExactly("retry", "retry", "retry");
		assertThat(response.<List<String>>read("$.events[*].key")).containsOnly("******");
		assertThat(response.<String>read("$.events[2].delay")).isEqualTo("PT0.05S");
		assertThat(response.<String>read("$.events[0].time")).endsWith("Z");
	}

	@Test
	void prometheusRendersTheSameMovesUnderControllerRuntimeNames() {
		Response response = this.actuator.get("/prometheus");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body()).contains("# TYPE ratelimiter_delay_seconds histogram",
				"ratelimiter_delay_seconds_count{controller=\"flaky\",source=\"backoff\"} 1",
				"ratelimiter_delay_seconds_sum{controller=\"flaky\",source=\"backoff\"} 0.05",
				"ratelimiter_delay_seconds_count{controller=\"flaky\",source=\"manager\"} 1",
				"ratelimiter_delay_seconds_count{controller=\"flaky\",source=\"bucket\"} 1",
				"ratelimiter_delay_seconds_bucket{controller=\"flaky\",source=\"bucket\",le=\"600.0\"} 0",
				"ratelimiter_delay_seconds_bucket{controller=\"flaky\",source=\"bucket\",le=\"1000.0\"} 1",
				"workqueue_retries_total{controller=\"flaky\",name=\"flaky\"} 2.0",
				"workqueue_waiting{controller=\"flaky\",name=\"flaky\"} 1.0",
				"workqueue_depth{controller=\"flaky\",name=\"flaky\",priority=\"0\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"flaky\",result=\"error\"} 2.0",
				"controller_runtime_reconcile_errors_total{controller=\"flaky\"} 2.0",
				"controller_runtime_max_concurrent_reconciles{controller=\"flaky\"} 1.0",
				"# TYPE ratelimiter_tokens gauge");
		assertThat(response.body()).containsPattern("ratelimiter_tokens\\{limiter=\"flaky\"} -0\\.9\\d*")
			.containsPattern("ratelimiter_tokens\\{limiter=\"manager\"} [0-9.]+");
	}

	@Test
	void healthIsUpWithTheControllersState() {
		Response response = this.actuator.get("/health/controllers");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.<String>read("$.status")).isEqualTo("UP");
		assertThat(response.<Map<String, Object>>read("$.details.controllers.flaky"))
			.isEqualTo(Map.of("status", "UP", "state", "running", "watches", "v1/ConfigMap"));
	}

	@Test
	void writesAreRefusedByDefault() {
		Response pause = this.actuator.post("/controllers/flaky/pause", "{}");
		assertThat(pause.status()).isEqualTo(405);
		Response retune = this.actuator.post("/controllers", "{\"qps\":5}");
		assertThat(retune.status()).isEqualTo(405);
		Response controllers = this.actuator.get("/controllers");
		assertThat(controllers.<String>read("$.controllers.flaky.state")).isEqualTo("running");
		assertThat(controllers.number("$.manager.rateLimiter.config.qps")).isEqualTo(0.5);
	}

	@Test
	void unknownControllerIsNotFound() {
		assertThat(this.actuator.get("/controllers/nope").status()).isEqualTo(404);
		assertThat(this.actuator.get("/controllers/nope/simulate").status()).isEqualTo(404);
	}

	@Test
	void simulateReplaysAFreshCopyOfTheLimiter() {
		Response response = this.actuator.get("/controllers/flaky/simulate?items=3&seconds=4");
		assertThat(response.status()).isEqualTo(200);
		// only the first key retries within 4 s, after 50 ms; the others wait for
		// the bucket
		assertThat(response.<List<Integer>>read("$.requeuesPerSecond")).containsExactly(1, 0, 0, 0);
		assertThat(response.<Integer>read("$.totalRequeues")).isEqualTo(1);
		assertThat(response.<String>read("$.rateLimiter.type")).isEqualTo("max-of");
	}

	@Test
	void badSimulationArgumentsAreBadRequestsWithAMessage() {
		Response zero = this.actuator.get("/controllers/flaky/simulate?items=0");
		assertThat(zero.status()).isEqualTo(400);
		assertThat(zero.<String>read("$.message")).isEqualTo("items must be between 1 and 100000, was 0");
		Response word = this.actuator.get("/controllers/flaky/simulate?seconds=soon");
		assertThat(word.status()).isEqualTo(400);
		assertThat(word.<String>read("$.message")).isEqualTo("seconds must be a whole number, was 'soon'");
		Response operation = this.actuator.get("/controllers/flaky/pause");
		assertThat(operation.status()).isEqualTo(400);
		assertThat(operation.<String>read("$.message")).startsWith("Unknown operation 'pause'");
	}

}
