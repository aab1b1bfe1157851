package dev.kubereconciler.observation;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ApiRequestObservationInterceptor} against a real HTTP server: a
 * request is observed only as the child of a current observation, and a propagator's
 * headers reach the server.
 */
class ApiRequestObservationInterceptorTests {

	private final ObservationRegistry registry = ObservationRegistry.create();

	private final List<ApiRequestObservationContext> stopped = new CopyOnWriteArrayList<>();

	private final Queue<String> traceparents = new ConcurrentLinkedQueue<>();

	private HttpServer server;

	private OkHttpClient client;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
			this.traceparents.add((traceparent != null) ? traceparent : "none");
			exchange.sendResponseHeaders(404, -1);
			exchange.close();
		});
		this.server.start();
		this.registry.observationConfig().observationHandler(new Propagating());
		this.registry.observationConfig().observationHandler((context) -> true);
		this.client = new OkHttpClient.Builder()
			.addInterceptor(new ApiRequestObservationInterceptor(this.registry, null))
			.build();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void aRequestOutsideAnyObservationIsNotObserved() throws IOException {
		get("/api/v1/namespaces/ns/configmaps?watch=true");
		assertThat(this.stopped).isEmpty();
		assertThat(this.traceparents).containsExactly("none");
	}

	@Test
	void aRequestDuringAnObservationIsItsChild() throws IOException {
		Observation parent = Observation.start("reconcile", this.registry);
		try (Observation.Scope scope = parent.openScope()) {
			get("/api/v1/namespaces/ns/configmaps/a");
		}
		parent.stop();
		assertThat(this.stopped).singleElement().satisfies((context) -> {
			assertThat(context.getParentObservation()).isSameAs(parent);
			assertThat(context.getLowCardinalityKeyValue("status").getValue()).isEqualTo("404");
			assertThat(context.getLowCardinalityKeyValue("verb").getValue()).isEqualTo("get");
			assertThat(context.getHighCardinalityKeyValue("name").getValue()).isEqualTo("a");
		});
		assertThat(this.traceparents).containsExactly("00-child");
	}

	private void get(String path) throws IOException {
		try (Response response = this.client
			.newCall(new Request.Builder().url("http://127.0.0.1:" + this.server.getAddress().getPort() + path).build())
			.execute()) {
			assertThat(response.code()).isEqualTo(404);
		}
	}

	// as a tracing bridge's sender handler: writes its header through the context's
	// setter
	private final class Propagating implements ObservationHandler<ApiRequestObservationContext> {

		@Override
		public void onStart(ApiRequestObservationContext context) {
			context.getSetter().set(context.getCarrier(), "traceparent", "00-child");
		}

		@Override
		public void onStop(ApiRequestObservationContext context) {
			ApiRequestObservationInterceptorTests.this.stopped.add(context);
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof ApiRequestObservationContext;
		}

	}

}
