package dev.kubereconciler.reliability;

import java.net.ConnectException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestAssets;
import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 2: the kube-apiserver process is killed mid-run while etcd keeps running, then
 * restarted; objects are created and updated through a second client once it is back. The
 * informers recover, every object is reconciled at its latest version, and no thread
 * leaks.
 *
 * <p>
 * It runs its own API server, so the kill does not disturb the other test classes.
 */
@KubernetesTest
class ApiServerRestartTests {

	private static final String NAMESPACE = "restart";

	private static final int OBJECTS = Reliability.scaled(50);

	private KubernetesTestServer server;

	private ControllerManager manager;

	private final Map<String, String> reconciledVersion = new ConcurrentHashMap<>();

	@BeforeEach
	void startServer() {
		this.server = KubernetesTestServer.start(KubernetesTestAssets.discover());
	}

	@AfterEach
	void stopServer() {
		if (this.manager != null) {
			this.manager.stop();
		}
		this.server.close();
	}

	@Test
	void informersRecoverFromAKilledApiServerAndNoThreadLeaks() throws Exception {
		ApiClient managerClient = this.server.apiClient();
		CoreV1Api writer = new CoreV1Api(this.server.apiClient());
		writer.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
		new CoreV1Api(managerClient).listNamespacedConfigMap(NAMESPACE).execute();
		Set<String> threadsBefore = liveThreads();
		this.manager = ControllerManager.builder(managerClient)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("restart")
				.namespaces(NAMESPACE)
				.maxConcurrentReconciles(2)
				.reconcile(this::reconcile))
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		this.manager.start();
		for (int i = 0; i < OBJECTS; i++) {
			writer.createNamespacedConfigMap(NAMESPACE, configMap("before-" + i, "0")).execute();
		}
		awaitAllReconciledAtLatest(writer, Duration.ofSeconds(30));
		long killed = System.nanoTime();
		this.server.killApiServer();
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> writer.listNamespacedConfigMap(NAMESPACE).execute())
			.withCauseInstanceOf(ConnectException.class);
		// an outage long enough for the informers' watches to break and their relists
		// to fail
		await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> isDown(writer));
		this.server.startApiServer();
		long restarted = System.nanoTime();
		for (int i = 0; i < OBJECTS; i++) {
			writer.createNamespacedConfigMap(NAMESPACE, configMap("after-" + i, "0")).execute();
			V1ConfigMap current = writer.readNamespacedConfigMap("before-" + i, NAMESPACE).execute();
			writer.replaceNamespacedConfigMap("before-" + i, NAMESPACE, current.data(Map.of("version", "1"))).execute();
		}
		long written = System.nanoTime();
		awaitAllReconciledAtLatest(writer, Duration.ofSeconds(60));
		long recovered = System.nanoTime();
		this.manager.stop();
		this.manager = null;
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(liveThreads()).isSubsetOf(threadsBefore));
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("objects before the kill; created and updated after the restart",
				OBJECTS + "; " + OBJECTS + " + " + OBJECTS);
		figures.put("API server down (SIGKILL to restart ready)", String.format("%.1f s", (restarted - killed) / 1e9));
		figures.put("all objects reconciled at their latest version, after the last write",
				String.format("%.1f s", (recovered - written) / 1e9));
		figures.put("threads before start; after stop", threadsBefore.size() + "; " + liveThreads().size());
		Reliability.report("2-api-server-restart", "2. API server restart", figures);
	}

	private static boolean isDown(CoreV1Api client) {
		try {
			client.listNamespacedConfigMap(NAMESPACE).execute();
			return false;
		}
		catch (ApiException ex) {
			return ex.getCause() instanceof ConnectException;
		}
	}

	private Result reconcile(Request request) {
		V1ConfigMap cached = this.manager.lister(V1ConfigMap.class).namespace(request.namespace()).get(request.name());
		if (cached != null) {
			this.reconciledVersion.put(request.name(), cached.getMetadata().getResourceVersion());
		}
		return Result.done();
	}

	private void awaitAllReconciledAtLatest(CoreV1Api writer, Duration timeout) throws ApiException {
		Map<String, String> latest = writer.listNamespacedConfigMap(NAMESPACE)
			.execute()
			.getItems()
			.stream()
			.collect(Collectors.toMap((configMap) -> configMap.getMetadata().getName(),
					(configMap) -> configMap.getMetadata().getResourceVersion()));
		await().atMost(timeout)
			.until(() -> latest.entrySet()
				.stream()
				.allMatch((entry) -> entry.getValue().equals(this.reconciledVersion.get(entry.getKey()))));
	}

	private static V1ConfigMap configMap(String name, String version) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("version", version));
	}

	private static Set<String> liveThreads() {
		// the HTTP clients' idle threads outlive the manager, the harness reaps the
		// restarted process, and Awaitility polls on a thread of its own: none of them is
		// the manager's
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.filter((thread) -> !thread.getName().startsWith("OkHttp") && !thread.getName().startsWith("Okio")
					&& !thread.getName().startsWith("process reaper") && !thread.getName().startsWith("awaitility"))
			.map((thread) -> thread.getName() + "#" + thread.getId())
			.collect(Collectors.toSet());
	}

}
