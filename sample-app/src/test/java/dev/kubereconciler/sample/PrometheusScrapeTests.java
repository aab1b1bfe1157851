package dev.kubereconciler.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.UseMainMethod;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.kubereconciler.sample.widget.WidgetStatus;
import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * The sample scraped by a real Prometheus (Debian's 2.42, on loopback), as a cluster's
 * Prometheus scrapes the generated Service: every query of the generated dashboard, every
 * expression of the generated alert rules without its threshold (the series the alert
 * judges, firing or not), and every query of kubebuilder's two Grafana dashboards returns
 * series; and {@code promtool check metrics} finds nothing to say about our metrics.
 */
@KubernetesTest
@SpringBootTest(useMainMethod = UseMainMethod.ALWAYS, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "kube-reconciler.crds.apply=true", "sample.external-api.latency=2ms",
				"sample.external-api.failure-rate=0", "sample.external-api.flaky-failures=3",
				"sample.widgets.retry.base-delay=20ms", "sample.widgets.retry.max-delay=500ms",
				"sample.widgets.retry.qps=100", "sample.widgets.verify-period=1h",
				"kube-reconciler.webhooks.register=true", "kube-reconciler.webhooks.port=0",
				"kube-reconciler.leader-election.enabled=true" })
@DirtiesContext
// promtool reads the scrape after the first test made every meter appear
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrometheusScrapeTests {

	private static final String NAMESPACE = TestObjects.uniqueNamespace("prometheus");

	private static final Path MONITORING = Path.of("target", "kubernetes", "monitoring");

	// the labels a cluster's Prometheus gives the generated Service's target: a
	// ServiceMonitor names the job after the Service, and adds namespace and pod
	private static final String JOB = "kube-reconciler-sample";

	private static final Map<String, String> TARGET_LABELS = Map.of("namespace", "default", "pod",
			"kube-reconciler-sample-7d9f8-x2x4q");

	// what Grafana puts for the dashboards' variables with those labels selected, and
	// $controller at "All"; $__rate_interval as Grafana computes it for a data source at
	// the default 15 s scrape interval
	private static final Map<String, String> GRAFANA_VARIABLES = Map.of("$__rate_interval", "1m", "$namespace",
			"default", "$job", JOB, "$pod", TARGET_LABELS.get("pod"), "$controller", ".*");

	private static final Duration SERIES_TIMEOUT = Duration.ofSeconds(30);

	private ApiClient client;

	@LocalServerPort
	private int port;

	@TempDir
	Path temp;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("kube-reconciler.controllers.widget.namespaces", () -> NAMESPACE);
		registry.add("kube-reconciler.controllers.configmap-mirror.namespaces", () -> NAMESPACE);
		registry.add("kube-reconciler.leader-election.lease-namespace", () -> NAMESPACE);
		// a target namespace that does not exist: every copy fails, and is retried
		registry.add("sample.mirror.target-namespace", () -> NAMESPACE + "-missing");
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
	@Order(1)
	void everyQueryOfTheDashboardsAndTheAlertsReturnsSeries() throws Exception {
		// skipped, or failed on CI, before anything is created
		PrometheusBinaries.prometheus();
		// a widget reconciled to Ready through three failures of its external API, its
		// dependent applied and both webhooks called; a mirrored ConfigMap failing on
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(NAMESPACE,
					new V1ConfigMap().metadata(new V1ObjectMeta().name("settings").labels(Map.of("mirror", "true")))
						.data(Map.of("k", "v")))
			.execute();
		TestObjects.widgets(this.client).create(TestObjects.widget(NAMESPACE, "blue", "blue", 3)).throwsApiException();
		await().until(() -> TestObjects.widgets(this.client).get(NAMESPACE, "blue").getObject(),
				(widget) -> widget.getStatus() != null && WidgetStatus.READY.equals(widget.getStatus().phase()));
		try (PrometheusServer prometheus = PrometheusServer.start(this.temp, configuration())) {
			List<JsonObject> rules = awaitEvaluatedRules(prometheus);
			List<Query> queries = new ArrayList<>(dashboardQueries());
			for (JsonObject rule : rules) {
				queries.add(new Query("alert " + rule.get("name").getAsString() + ", without its threshold",
						PromQl.withoutThreshold(rule.get("query").getAsString())));
			}
			queries.addAll(kubebuilderQueries());
			// what was driven above reached Prometheus
			queries.add(new Query("the failing mirror's errors",
					"controller_runtime_reconcile_errors_total{controller=\"configmap-mirror\"} > 0"));
			queries.add(new Query("the widget's webhook requests",
					"controller_runtime_webhook_requests_total{code=\"200\"} > 0"));
			queries.add(new Query("the widget's dependent applied", "kube_reconciler_dependent_applies_total > 0"));
			try {
				await().atMost(SERIES_TIMEOUT)
					.pollInterval(Duration.ofSeconds(1))
					.until(() -> empty(prometheus, queries).isEmpty());
			}
			catch (ConditionTimeoutException ex) {
				fail("Queries without series after %s of scrapes every second:%n%s", SERIES_TIMEOUT,
						describe(prometheus, empty(prometheus, queries)));
			}
		}
	}

	@Test
	@Order(2)
	void promtoolFindsNothingToSayAboutOurMetrics() throws Exception {
		HttpResponse<String> scrape = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/prometheus"))
				.header("Accept", "text/plain; version=0.0.4; charset=utf-8")
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(scrape.statusCode()).isEqualTo(200);
		PrometheusBinaries.Run check = PrometheusBinaries.promtool(scrape.body(), "check", "metrics");
		// 3: problems found, the JVM's among them; 1: the scrape did not parse
		assertThat(check.exitCode()).as("%s:%n%s", check.command(), check.output()).isIn(0, 3);
		assertThat(check.output()).doesNotContain("error while linting");
		List<String> ours = check.output().lines().filter(PrometheusScrapeTests::isOurs).toList();
		assertThat(ours).as("what %s said about our metrics", check.command()).isEmpty();
	}

	// ours: controller-runtime's, client-go's, ours, and Prometheus' standard process
	// metrics; the JVM's, Tomcat's and Micrometer's own are Micrometer's business
	private static boolean isOurs(String line) {
		String metric = line.split(" ", 2)[0];
		return metric.startsWith("controller_runtime_") || metric.startsWith("workqueue_")
				|| metric.startsWith("ratelimiter_") || metric.startsWith("kube_reconciler_")
				|| metric.startsWith("rest_client_") || metric.startsWith("leader_election_")
				|| List
					.of("process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
							"process_open_fds", "process_max_fds", "process_start_time_seconds")
					.contains(metric);
	}

	private String configuration() {
		StringBuilder labels = new StringBuilder();
		TARGET_LABELS
			.forEach((name, value) -> labels.append("        ").append(name).append(": ").append(value).append('\n'));
		return """
				global:
				  scrape_interval: 1s
				  scrape_timeout: 1s
				  evaluation_interval: 1s
				rule_files:
				  - %s
				scrape_configs:
				  - job_name: %s
				    metrics_path: /actuator/prometheus
				    static_configs:
				    - targets: ['127.0.0.1:%d']
				      labels:
				%s""".formatted(manifest("alert-rules.yaml").toAbsolutePath(), JOB, this.port, labels);
	}

	// the rules as Prometheus loaded them from the generated file, once each has been
	// evaluated without an error
	private static List<JsonObject> awaitEvaluatedRules(PrometheusServer prometheus) {
		List<JsonObject> rules = await().atMost(SERIES_TIMEOUT)
			.until(prometheus::alertingRules, (loaded) -> !loaded.isEmpty()
					&& loaded.stream().noneMatch((rule) -> "unknown".equals(rule.get("health").getAsString())));
		assertThat(rules).as("the alerting rules of %s", manifest("alert-rules.yaml"))
			.hasSize(6)
			.allSatisfy((rule) -> assertThat(rule.get("health").getAsString()).as(rule.toString()).isEqualTo("ok"));
		return rules;
	}

	private static List<Query> dashboardQueries() throws IOException {
		JsonObject dashboard = JsonParser.parseString(Files.readString(manifest("dashboard.json"))).getAsJsonObject();
		String title = "dashboard.json";
		List<Query> queries = new ArrayList<>();
		for (JsonElement variable : dashboard.getAsJsonObject("templating").getAsJsonArray("list")) {
			JsonObject query = variable.getAsJsonObject();
			if ("query".equals(query.get("type").getAsString())) {
				queries.add(new Query(title + ", variable " + query.get("name").getAsString(),
						query.getAsJsonObject("query").get("query").getAsString()));
			}
		}
		for (JsonElement panel : dashboard.getAsJsonArray("panels")) {
			JsonObject object = panel.getAsJsonObject();
			if (object.has("targets")) {
				for (JsonElement target : object.getAsJsonArray("targets")) {
					queries.add(new Query(title + ", panel " + object.get("title").getAsString(),
							target.getAsJsonObject().get("expr").getAsString()));
				}
			}
		}
		assertThat(queries).hasSizeGreaterThan(40);
		return queries;
	}

	private static List<Query> kubebuilderQueries() throws IOException {
		List<Query> queries = new ArrayList<>();
		try (InputStream in = PrometheusScrapeTests.class
			.getResourceAsStream("/prometheus/kubebuilder-dashboard-queries.txt")) {
			for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
				if (!line.isBlank() && !line.startsWith("#")) {
					String[] parts = line.split(" \\| ", 3);
					queries.add(new Query("kubebuilder " + parts[0] + ", " + parts[1], parts[2]));
				}
			}
		}
		assertThat(queries).hasSize(21);
		return queries;
	}

	private static List<Query> empty(PrometheusServer prometheus, List<Query> queries)
			throws IOException, InterruptedException {
		List<Query> empty = new ArrayList<>();
		for (Query query : queries) {
			if (!query.returnsSeries(prometheus)) {
				empty.add(query);
			}
		}
		return empty;
	}

	private static String describe(PrometheusServer prometheus, List<Query> empty)
			throws IOException, InterruptedException {
		StringBuilder description = new StringBuilder();
		for (Query query : empty) {
			description.append("- ").append(query.source()).append(": ").append(query.promQl()).append('\n');
			PrometheusServer.Result result = prometheus.query(query.selector());
			if (result.error() != null) {
				description.append("  Prometheus: ").append(result.error()).append('\n');
				continue;
			}
			List<String> lacking = new ArrayList<>();
			for (String metric : PromQl.metricNames(query.selector())) {
				if (prometheus.query(metric).series().isEmpty()) {
					lacking.add(metric);
				}
			}
			description.append(lacking.isEmpty()
					? "  its metrics have series, but a label matcher or the expression selects none\n"
					: "  no series of " + String.join(", ", lacking) + " was scraped\n");
		}
		return description.toString();
	}

	private static Path manifest(String file) {
		Path path = MONITORING.resolve(file);
		assertThat(path)
			.as("generated by the build (process-classes, before the tests): run "
					+ "./mvnw -pl sample-app -am verify, not the test class alone")
			.isRegularFile();
		return path;
	}

	/**
	 * One query of a dashboard or an alert, with Grafana's variables substituted.
	 *
	 * @param source where it comes from
	 * @param promQl the query as written
	 */
	record Query(String source, String promQl) {

		// Grafana's label_values(selector, label) asks for the values of the label
		private static final String LABEL_VALUES = "label_values(";

		String substituted() {
			String query = this.promQl;
			for (Map.Entry<String, String> variable : GRAFANA_VARIABLES.entrySet()) {
				query = query.replace(variable.getKey(), variable.getValue());
			}
			return query;
		}

		String selector() {
			String query = substituted();
			return query.startsWith(LABEL_VALUES)
					? query.substring(LABEL_VALUES.length(), query.lastIndexOf(',')).strip() : query;
		}

		boolean returnsSeries(PrometheusServer prometheus) throws IOException, InterruptedException {
			String query = substituted();
			if (query.startsWith(LABEL_VALUES)) {
				String label = query.substring(query.lastIndexOf(',') + 1, query.lastIndexOf(')')).strip();
				return !prometheus.labelValues(selector(), label).isEmpty();
			}
			PrometheusServer.Result result = prometheus.query(query);
			return result.error() == null && !result.series().isEmpty();
		}

	}

}
