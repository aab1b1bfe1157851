package dev.kubereconciler.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.autoconfigure.PlainJvmOperator.Fleet;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator started as a user starts one: its own JVM with no flags (client-java then
 * decodes no {@code managedFields}), its cluster from {@code KUBECONFIG}, its settings as
 * arguments. What it must do there: prune the members a shrinking bulk dependent no
 * longer wants, and, once steady, send no write at all, though its status class has no
 * {@code equals}. The API server's own {@code apiserver_request_total} counts the writes.
 */
@KubernetesTest(crds = "plain-jvm/fleets.yaml")
class PlainJvmOperatorTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	private static final Pattern REQUESTS = Pattern
		.compile("^apiserver_request_total\\{(?<labels>[^}]*)} (?<value>\\S+)$", Pattern.MULTILINE);

	private static final List<String> READS = List.of("GET", "LIST", "WATCH");

	KubernetesTestServer server;

	ApiClient client;

	TestNamespace namespace;

	private Process operator;

	private final Path log = Path.of("target", "plain-jvm-operator.log");

	@AfterEach
	void stopOperator() throws InterruptedException {
		if (this.operator != null) {
			this.operator.destroy();
			this.operator.waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void prunesAShrinkingBulkDependentAndWritesNothingOnceSteady() throws Exception {
		start();
		fleets().create(fleet("armada", 3)).throwsApiException();
		await().atMost(TIMEOUT).until(() -> members("armada").size() == 3 && readyMembers("armada") == 3);
		// the status write comes back as an update and is reconciled once more: past it
		// the fleet is steady, and resyncs every second reconcile it again and again
		awaitReconciles(2);
		Map<String, Double> writesBefore = writes();
		awaitReconciles(3);
		assertThat(writes()).as("writes of a steady operator, by the API server's count").isEqualTo(writesBefore);

		fleets()
			.patch(this.namespace.name(), "armada", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"spec\":{\"members\":1}}"))
			.throwsApiException();
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(members("armada")).containsExactly("armada-0"));
	}

	private void start() throws IOException {
		Files.createDirectories(this.log.getParent());
		ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), PlainJvmOperator.class.getName(),
				"--kube-reconciler.controllers.fleet.namespaces=" + this.namespace.name(),
				"--kube-reconciler.controllers.fleet.resync-period=1s");
		builder.environment().put("KUBECONFIG", this.server.kubeconfig().toString());
		this.operator = builder.redirectErrorStream(true).redirectOutput(this.log.toFile()).start();
	}

	private void awaitReconciles(int more) throws IOException {
		long target = reconciles() + more;
		await().atMost(TIMEOUT).until(() -> {
			assertThat(this.operator.isAlive()).as("the operator is running; its log:%n%s", logText()).isTrue();
			return reconciles() >= target;
		});
	}

	private long reconciles() throws IOException {
		return logText().lines().filter((line) -> line.contains(PlainJvmOperator.RECONCILED + "armada")).count();
	}

	private String logText() throws IOException {
		return Files.readString(this.log, StandardCharsets.UTF_8);
	}

	// every request but reads, of fleets (and their status) and ServiceAccounts, by
	// labels
	private Map<String, Double> writes() throws IOException {
		Request request = new Request.Builder().url(this.client.getBasePath() + "/metrics").build();
		Map<String, Double> writes = new TreeMap<>();
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			Matcher matcher = REQUESTS.matcher(response.body().string());
			while (matcher.find()) {
				String labels = matcher.group("labels");
				boolean ours = labels.contains("resource=\"fleets\"")
						|| labels.contains("resource=\"serviceaccounts\"");
				boolean read = READS.stream().anyMatch((verb) -> labels.contains("verb=\"" + verb + "\""));
				if (ours && !read) {
					writes.put(labels, Double.parseDouble(matcher.group("value")));
				}
			}
		}
		return writes;
	}

	private List<String> members(String fleet) throws Exception {
		return new CoreV1Api(this.client).listNamespacedServiceAccount(this.namespace.name())
			.execute()
			.getItems()
			.stream()
			.map((account) -> account.getMetadata().getName())
			.filter((name) -> name.startsWith(fleet + "-"))
			.sorted()
			.toList();
	}

	private int readyMembers(String fleet) throws Exception {
		Fleet read = fleets().get(this.namespace.name(), fleet).throwsApiException().getObject();
		return (read.getStatus() != null && read.getStatus().getMembers() != null) ? read.getStatus().getMembers() : -1;
	}

	private Fleet fleet(String name, int members) {
		Fleet fleet = new Fleet();
		fleet.setMetadata(new V1ObjectMeta().name(name).namespace(this.namespace.name()));
		fleet.setSpec(new Fleet.Spec());
		fleet.getSpec().setMembers(members);
		return fleet;
	}

	// a model on the base class has no list class of its own
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private GenericKubernetesApi<Fleet, CustomResourceList<Fleet>> fleets() {
		return new GenericKubernetesApi(Fleet.class, CustomResourceList.class, "plain.test.kubereconciler.dev", "v1",
				"fleets", this.client);
	}

}
