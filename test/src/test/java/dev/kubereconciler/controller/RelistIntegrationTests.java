package dev.kubereconciler.controller;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An informer whose watch broke, and whose place in the history was compacted away while
 * it was gone, lists again, and its watch starts from that list: nothing that happened
 * meanwhile or after is lost.
 */
@KubernetesTest
class RelistIntegrationTests {

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	@Test
	void aChangeCompactedAwayWhileTheApiServerWasGoneIsListedAndLaterChangesAreWatched() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		String namespace = this.namespace.name();
		create(core, "before");
		Map<String, AtomicInteger> reconciled = new ConcurrentHashMap<>();
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("relist")
			.namespaces(namespace)
			.reconcile((request) -> {
				reconciled.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet();
				return Result.done();
			});
		// the answers to the informer's requests after the API server came back
		List<String> answers = new CopyOnWriteArrayList<>();
		AtomicBoolean away = new AtomicBoolean();
		ApiClient client = this.server.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			Response response = chain.proceed(chain.request());
			HttpUrl url = chain.request().url();
			if (away.get() && url.encodedPath().endsWith("/configmaps")) {
				answers.add((("true".equals(url.queryParameter("watch"))) ? "watch " : "list ") + response.code());
			}
			return response;
		}).build());
		ControllerManager manager = ControllerManager.builder(client)
			.controller(definition)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		manager.start();
		try {
			await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.containsKey("before"));
			this.server.stopApiServer();
			away.set(true);
			try {
				// written behind the API server's back, and its history compacted: the
				// informer's watch cannot resume where it stopped (410 Gone)
				long revision = putIntoEtcd(namespace, "while-away");
				etcd("/v3/kv/compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}");
			}
			finally {
				this.server.startApiServer();
			}
			await().atMost(Duration.ofSeconds(60)).until(() -> reconciled.containsKey("while-away"));
			assertThat(manager.lister(V1ConfigMap.class).namespace(namespace).get("while-away")).isNotNull();
			create(core, "after");
			await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.containsKey("after"));
			// the watch from the informer's last version ends with 410 Gone in its
			// stream; a list reads everything again and a watch goes on from it
			assertThat(answers).containsSubsequence("list 200", "watch 200");
			assertThat(reconciled.get("while-away")).hasValue(1);
			assertThat(reconciled.get("after")).hasValue(1);
		}
		finally {
			manager.stop();
		}
	}

	private void create(CoreV1Api core, String name) throws Exception {
		core.createNamespacedConfigMap(this.namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).putDataItem("k", "v"))
			.execute();
	}

	/**
	 * Store a ConfigMap in etcd as the API server stores it, as JSON under its key.
	 * @return etcd's revision after the write
	 */
	private long putIntoEtcd(String namespace, String name) throws Exception {
		String json = "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"" + name
				+ "\",\"namespace\":\"" + namespace + "\",\"uid\":\"" + UUID.randomUUID()
				+ "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"data\":{\"k\":\"v\"}}";
		String body = "{\"key\":\"" + base64("/registry/configmaps/" + namespace + "/" + name) + "\",\"value\":\""
				+ base64(json) + "\"}";
		JsonObject answer = new Gson().fromJson(etcd("/v3/kv/put", body), JsonObject.class);
		return answer.getAsJsonObject("header").get("revision").getAsLong();
	}

	private String etcd(String path, String body) throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(this.server.etcdUrl() + path))
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.body();
	}

	private static String base64(String text) {
		return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

}
