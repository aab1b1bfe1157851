package dev.kubereconciler.actuate;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kubernetes probes over HTTP: readiness waits for the caches, ignores leadership,
 * and liveness never asks the API server.
 */
@KubernetesTest
class ProbesTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private final HttpClient http = HttpClient.newHttpClient();

	KubernetesTestServer server;

	TestNamespace namespace;

	@Test
	void withoutAnApiServerReadinessStaysDownAndLivenessStaysUp() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		// nothing listens there: the caches can never sync
		try (ConfigurableApplicationContext context = start("http://127.0.0.1:" + closedPort, false,
				"kube-reconciler.defaults.cache-sync-timeout=4s")) {
			assertThat(status(context, "readiness")).isEqualTo(503);
			CompletableFuture<Void> starting = CompletableFuture
				.runAsync(() -> context.getBean(ManagedControllers.class).start());
			await().during(Duration.ofSeconds(2))
				.atMost(TIMEOUT)
				.until(() -> status(context, "readiness") == 503 && status(context, "liveness") == 200);
			// the start gives up after the cache sync timeout; the pod is still alive
			await().atMost(TIMEOUT).until(starting::isDone);
			assertThat(starting).isCompletedExceptionally();
			assertThat(status(context, "liveness")).isEqualTo(200);
			assertThat(status(context, "readiness")).isEqualTo(503);
		}
	}

	@Test
	void readinessIsUpOnceTheCachesSyncedOnTheLeaderAndOnTheOtherReplica() throws Exception {
		try (ConfigurableApplicationContext leader = start(null, true);
				ConfigurableApplicationContext follower = start(null, true)) {
			ManagedControllers first = leader.getBean(ManagedControllers.class);
			ManagedControllers second = follower.getBean(ManagedControllers.class);
			await().atMost(TIMEOUT).until(() -> first.getManager().isLeader() != second.getManager().isLeader());
			assertThat(first.getManager().hasSynced()).isTrue();
			assertThat(second.getManager().hasSynced()).isTrue();
			assertThat(status(leader, "readiness")).isEqualTo(200);
			assertThat(status(follower, "readiness")).isEqualTo(200);
			assertThat(status(leader, "liveness")).isEqualTo(200);
			assertThat(status(follower, "liveness")).isEqualTo(200);
		}
	}

	private ConfigurableApplicationContext start(String apiServer, boolean autoStartup, String... properties) {
		return new SpringApplicationBuilder(Application.class)
			.properties("server.port=0", "management.endpoint.health.probes.enabled=true",
					"management.endpoints.web.exposure.include=health", "kube-reconciler.auto-startup=" + autoStartup,
					"kube-reconciler.controllers.probed.namespaces=" + this.namespace.name(),
					"kube-reconciler.leader-election.enabled=true",
					"kube-reconciler.leader-election.lease-name=probes-leader",
					"kube-reconciler.leader-election.lease-namespace=" + this.namespace.name(),
					"kube-reconciler.shutdown-timeout=2s",
					"probes.api-server=" + ((apiServer != null) ? apiServer : ""))
			.properties(properties)
			.run();
	}

	private int status(ConfigurableApplicationContext context, String group) throws IOException, InterruptedException {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health/" + group))
			.timeout(Duration.ofSeconds(10))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		@Bean
		ApiClient apiClient(Environment environment) {
			String url = environment.getProperty("probes.api-server", "");
			if (url.isEmpty()) {
				return KubernetesTestServer.shared().apiClient();
			}
			return new ClientBuilder().setBasePath(url).setReadTimeout(Duration.ZERO).build();
		}

		@Bean
		Probed probed() {
			return new Probed();
		}

	}

	static class Probed {

		@Reconciler(name = "probed", watches = V1ConfigMap.class)
		void reconcile(Request request) {
		}

	}

}
