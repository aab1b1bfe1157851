package dev.kubereconciler.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus for a test: Debian's {@code prometheus} binary on loopback, on a free
 * port, with its data and log in a folder of the test's; asked through its HTTP API, as
 * Grafana asks it.
 */
final class PrometheusServer implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

	private final Process process;

	private final Path log;

	private final URI base;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private PrometheusServer(Process process, Path log, URI base) {
		this.process = process;
		this.log = log;
		this.base = base;
	}

	/**
	 * Start Prometheus with a configuration and wait until it is ready.
	 * @param folder the folder for its configuration, data and log
	 * @param configuration the content of its {@code prometheus.yml}
	 * @return the running server
	 */
	static PrometheusServer start(Path folder, String configuration) throws IOException {
		Path config = Files.writeString(folder.resolve("prometheus.yml"), configuration);
		Path log = folder.resolve("prometheus.log");
		int port = freePort();
		Process process = new ProcessBuilder(PrometheusBinaries.prometheus().toString(), "--config.file=" + config,
				"--storage.tsdb.path=" + folder.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		PrometheusServer server = new PrometheusServer(process, log, URI.create("http://127.0.0.1:" + port));
		try {
			await("Prometheus ready on port " + port).atMost(START_TIMEOUT).until(server::ready);
		}
		catch (RuntimeException ex) {
			server.close();
			fail("Prometheus did not start:%n%s", Files.readString(log));
		}
		return server;
	}

	/**
	 * Evaluate an instant query, as a Grafana panel does.
	 * @param query the PromQL
	 * @return the series it returned, or the error Prometheus reported
	 */
	Result query(String query) throws IOException, InterruptedException {
		JsonObject answer = get("/api/v1/query?query=" + encode(query));
		if (!"success".equals(answer.get("status").getAsString())) {
			return new Result(List.of(), answer.get("error").getAsString());
		}
		JsonObject data = answer.getAsJsonObject("data");
		if (!"vector".equals(data.get("resultType").getAsString())) {
			return new Result(List.of(data.get("result")), null);
		}
		List<JsonElement> series = new ArrayList<>();
		data.getAsJsonArray("result").forEach(series::add);
		return new Result(series, null);
	}

	/**
	 * Return the values of a label among the series a selector matches: Grafana's
	 * {@code label_values(selector, label)}, through the API it calls.
	 * @param selector the series selector
	 * @param label the label
	 * @return the values
	 */
	List<String> labelValues(String selector, String label) throws IOException, InterruptedException {
		JsonObject answer = get("/api/v1/label/" + label + "/values?match[]=" + encode(selector));
		List<String> values = new ArrayList<>();
		answer.getAsJsonArray("data").forEach((value) -> values.add(value.getAsString()));
		return values;
	}

	/**
	 * Return the alerting rules Prometheus loaded, with the expression it parsed and the
	 * health of its last evaluation.
	 * @return the rules
	 */
	List<JsonObject> alertingRules() throws IOException, InterruptedException {
		List<JsonObject> rules = new ArrayList<>();
		for (JsonElement group : get("/api/v1/rules?type=alert").getAsJsonObject("data").getAsJsonArray("groups")) {
			group.getAsJsonObject().getAsJsonArray("rules").forEach((rule) -> rules.add(rule.getAsJsonObject()));
		}
		return rules;
	}

	String log() throws IOException {
		return Files.readString(this.log);
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	private boolean ready() throws IOException, InterruptedException {
		if (!this.process.isAlive()) {
			fail("Prometheus exited with %d:%n%s", this.process.exitValue(), log());
		}
		try {
			HttpResponse<String> response = this.http.send(
					HttpRequest.newBuilder(this.base.resolve("/-/ready")).build(),
					HttpResponse.BodyHandlers.ofString());
			return response.statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private JsonObject get(String path) throws IOException, InterruptedException {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create(this.base + path)).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
		return JsonParser.parseString(response.body()).getAsJsonObject();
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/**
	 * What a query returned.
	 *
	 * @param series the series of a vector, or the one value of a scalar
	 * @param error the error Prometheus reported, if any
	 */
	record Result(List<JsonElement> series, @Nullable String error) {

	}

}
