package dev.kubereconciler.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RestClientMetrics}: requests of a real {@link ApiClient} to a local
 * HTTP server, timed with a {@link MockClock} that the server moves on while it answers,
 * and client-go's Prometheus names, labels and buckets in a scrape.
 */
class RestClientMetricsTests {

	private static final String CONFIG_MAP = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}";

	private final MockClock clock = new MockClock();

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
			new PrometheusRegistry(), this.clock);

	private HttpServer server;

	private String host;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/", this::answer);
		this.server.start();
		this.host = "127.0.0.1:" + this.server.getAddress().getPort();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	private void answer(HttpExchange exchange) throws IOException {
		exchange.getRequestBody().readAllBytes();
		// the server takes 30 ms to answer, on the client's clock
		this.clock.add(Duration.ofMillis(30));
		String path = exchange.getRequestURI().getPath();
		boolean found = path.endsWith("/configmaps/a") || path.endsWith("/configmaps");
		byte[] body = (found ? CONFIG_MAP : "").getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(found ? ((exchange.getRequestMethod().equals("POST")) ? 201 : 200) : 404,
				(body.length > 0) ? body.length : -1);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	private ApiClient client(String host) {
		ApiClient client = new ApiClient().setBasePath("http://" + host);
		return RestClientMetrics.instrument(client, this.registry);
	}

	@Test
	void everyRequestIsCountedByCodeMethodAndHostAndTimedUntilItsBodyIsRead() throws ApiException {
		CoreV1Api api = new CoreV1Api(client(this.host));
		api.readNamespacedConfigMap("a", "default").execute();
		api.readNamespacedConfigMap("a", "default").execute();
		api.createNamespacedConfigMap("default", new V1ConfigMap().metadata(new V1ObjectMeta().name("a"))).execute();
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> api.readNamespacedConfigMap("b", "default").execute());
		assertThat(this.registry.get("rest.client.requests").tags("code", "200", "method", "GET").counter().count())
			.isEqualTo(2);
		assertThat(this.registry.get("rest.client.requests").tags("code", "201", "method", "POST").counter().count())
			.isEqualTo(1);
		assertThat(this.registry.get("rest.client.requests").tags("code", "404", "method", "GET").counter().count())
			.isEqualTo(1);
		Timer get = this.registry.get("rest.client.request.duration").tags("verb", "GET", "host", this.host).timer();
		assertThat(get.count()).isEqualTo(3);
		assertThat(get.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(90);
		// the two bodies read, not the 404's empty one
		assertThat(this.registry.get("rest.client.response.size").tags("verb", "GET").summary().totalAmount())
			.isEqualTo(2.0 * CONFIG_MAP.length());
		assertThat(this.registry.get("rest.client.response.size").tags("verb", "GET").summary().count()).isEqualTo(2);
		assertThat(this.registry.get("rest.client.request.size").tags("verb", "GET").summary().count()).isEqualTo(3);
		assertThat(this.registry.get("rest.client.request.size").tags("verb", "POST").summary().totalAmount())
			.isPositive();
	}

	@Test
	void aWatchIsCountedOnceWhenItOpensAndNotTimed() throws IOException {
		ApiClient client = client(this.host);
		Request watch = new Request.Builder()
			.url("http://" + this.host + "/api/v1/namespaces/default/configmaps?watch=true")
			.build();
		try (Response response = client.getHttpClient().newCall(watch).execute()) {
			assertThat(this.registry.get("rest.client.requests").tags("code", "200", "method", "GET").counter().count())
				.isEqualTo(1);
			response.body().string();
		}
		assertThat(this.registry.find("rest.client.request.duration").timer()).isNull();
		assertThat(this.registry.get("rest.client.requests").tags("code", "200", "method", "GET").counter().count())
			.isEqualTo(1);
	}

	@Test
	void aRequestWithoutAResponseIsCountedAsAnError() throws IOException {
		int closed;
		try (ServerSocket socket = new ServerSocket(0)) {
			closed = socket.getLocalPort();
		}
		String host = "127.0.0.1:" + closed;
		CoreV1Api api = new CoreV1Api(client(host));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> api.readNamespacedConfigMap("a", "default").execute());
		assertThat(this.registry.get("rest.client.requests")
			.tags("code", "<error>", "method", "GET", "host", host)
			.counter()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("rest.client.request.duration").tags("host", host).timer().count()).isEqualTo(1);
	}

	@Test
	void aClientIsInstrumentedOncePerRegistry() throws ApiException {
		ApiClient client = client(this.host);
		RestClientMetrics.instrument(client, this.registry);
		new CoreV1Api(client).readNamespacedConfigMap("a", "default").execute();
		assertThat(this.registry.get("rest.client.requests").tags("code", "200").counter().count()).isEqualTo(1);
	}

	@Test
	void theScrapeHasClientGosNamesLabelsAndBuckets() throws ApiException {
		new CoreV1Api(client(this.host)).readNamespacedConfigMap("a", "default").execute();
		String scrape = this.registry.scrape();
		assertThat(scrape).contains("# TYPE rest_client_requests_total counter\n")
			.contains("rest_client_requests_total{code=\"200\",host=\"" + this.host + "\",method=\"GET\"} 1.0\n")
			.contains("# TYPE rest_client_request_duration_seconds histogram\n")
			.contains("rest_client_request_duration_seconds_count{host=\"" + this.host + "\",verb=\"GET\"} 1\n")
			.contains("# TYPE rest_client_request_size_bytes histogram\n")
			.contains("# TYPE rest_client_response_size_bytes histogram\n")
			.contains(
					"rest_client_response_size_bytes_bucket{host=\"" + this.host + "\",verb=\"GET\",le=\"64.0\"} 1\n");
		assertThat(scrape.lines()
			.filter((line) -> line.startsWith("rest_client_request_duration_seconds_bucket{"))
			.map((line) -> line.substring(line.indexOf("le=\"") + 4, line.indexOf("\"}")))).containsExactly("0.005",
					"0.025", "0.1", "0.25", "0.5", "1.0", "2.0", "4.0", "8.0", "15.0", "30.0", "60.0", "+Inf");
		assertThat(scrape.lines()
			.filter((line) -> line.startsWith("rest_client_request_size_bytes_bucket{"))
			.map((line) -> line.substring(line.indexOf("le=\"") + 4, line.indexOf("\"}")))).containsExactly("64.0",
					"256.0", "512.0", "1024.0", "4096.0", "16384.0", "65536.0", "262144.0", "1048576.0", "4194304.0",
					"1.6777216E7", "+Inf");
	}

}
