package dev.kubereconciler.controller;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import okhttp3.HttpUrl;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.test.fault.FaultProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An informer cut off by a network partition while its objects change, come and go, and
 * etcd's history is compacted past the version it last saw, lists once when the network
 * heals, and every change reaches the reconciler: updates as their final state, deletes
 * as deletes.
 *
 * <p>
 * The API server's watch cache answers a version etcd has compacted away as long as the
 * cache still holds it, and the server learns of compactions only from its own compactor;
 * so the informer comes back to an API server restarted behind the partition, whose cache
 * starts after the compaction, as a restarted or another replica's does.
 */
@KubernetesTest
class CompactedWatchIntegrationTests {

	private static final String GONE = "<deleted>";

	private static final int OBJECTS = 30;

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	@Test
	void aWatchHeldAtACompactedVersionRelistsOnceAndLosesNoChange() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		String namespace = this.namespace.name();
		Map<String, String> expected = new HashMap<>();
		for (int i = 0; i < OBJECTS; i++) {
			expected.put(create(core, "cm-" + i, "v0"), "v0");
		}
		try (FaultProxy proxy = FaultProxy.start(this.server.url())) {
			List<ApiCall> calls = new CopyOnWriteArrayList<>();
			ApiClient proxied = recording(proxy, calls);
			Map<String, String> seen = new ConcurrentHashMap<>();
			AtomicReference<ControllerManager> running = new AtomicReference<>();
			ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
				.named("compacted")
				.namespaces(namespace)
				.reconcile((request) -> {
					V1ConfigMap cached = running.get()
						.lister(V1ConfigMap.class)
						.namespace(namespace)
						.get(request.name());
					seen.put(request.name(), (cached != null) ? cached.getData().get("k") : GONE);
					return Result.done();
				});
			ControllerManager manager = ControllerManager.builder(proxied)
				.controller(definition)
				.shutdownTimeout(Duration.ofSeconds(5))
				.build();
			running.set(manager);
			manager.start();
			try {
				await().atMost(Duration.ofSeconds(30)).until(() -> seen.equals(expected));
				proxy.blackHole(Duration.ofMinutes(5));
				calls.clear();
				proxy.resetAll();
				changeEverything(core, expected);
				long compacted = etcdRevision();
				etcd("/v3/kv/compaction", "{\"revision\":\"" + compacted + "\",\"physical\":true}");
				this.server.stopApiServer();
				this.server.startApiServer();
				proxy.heal();
				await().atMost(Duration.ofSeconds(45)).untilAsserted(() -> assertThat(seen).isEqualTo(expected));
				// the relist asks for a state not older than the informer's version, as
				// client-go's reflector does, which the server answers with its newest,
				// past the compaction: no 410, one list, and the watch goes on from it
				assertThat(calls).filteredOn(ApiCall::gone).isEmpty();
				assertThat(calls).filteredOn(ApiCall::fullList).hasSize(1);
				assertThat(calls).filteredOn(ApiCall::watch)
					.isNotEmpty()
					.allSatisfy((watch) -> assertThat(watch.resourceVersion()).isGreaterThanOrEqualTo(compacted));
			}
			finally {
				manager.stop();
			}
		}
	}

	/**
	 * Delete every third object, update the others three times, and create ten more.
	 */
	private void changeEverything(CoreV1Api core, Map<String, String> expected) throws Exception {
		String namespace = this.namespace.name();
		for (int i = 0; i < OBJECTS; i++) {
			String name = "cm-" + i;
			if (i % 3 == 0) {
				core.deleteNamespacedConfigMap(name, namespace).execute();
				expected.put(name, GONE);
			}
			else {
				for (int version = 1; version <= 3; version++) {
					V1ConfigMap current = core.readNamespacedConfigMap(name, namespace).execute();
					core.replaceNamespacedConfigMap(name, namespace, current.data(Map.of("k", "v" + version)))
						.execute();
				}
				expected.put(name, "v3");
			}
		}
		for (int i = OBJECTS; i < OBJECTS + 10; i++) {
			expected.put(create(core, "cm-" + i, "new"), "new");
		}
	}

	/**
	 * A client through the proxy that records the answers to its ConfigMap lists and
	 * watches.
	 */
	private ApiClient recording(FaultProxy proxy, List<ApiCall> calls) throws Exception {
		ApiClient proxied = ClientBuilder
			.kubeconfig(KubeConfig
				.loadKubeConfig(new StringReader(proxy.kubeconfig(Files.readString(this.server.kubeconfig())))))
			.build();
		proxied.setHttpClient(proxied.getHttpClient().newBuilder().addInterceptor((chain) -> {
			HttpUrl url = chain.request().url();
			Response response = chain.proceed(chain.request());
			if (url.encodedPath().endsWith("/configmaps")) {
				String version = url.queryParameter("resourceVersion");
				calls.add(new ApiCall("true".equals(url.queryParameter("watch")), url.queryParameter("limit"),
						(version != null) ? Long.parseLong(version) : -1, response.code()));
			}
			return response;
		}).build());
		return proxied;
	}

	private String create(CoreV1Api core, String name, String value) throws Exception {
		core.createNamespacedConfigMap(this.namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).putDataItem("k", value))
			.execute();
		return name;
	}

	private long etcdRevision() throws Exception {
		// a range of the key "\0" reads nothing and answers with the store's revision
		JsonObject answer = new Gson().fromJson(etcd("/v3/kv/range", "{\"key\":\"AA==\"}"), JsonObject.class);
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

	/**
	 * One answered list or watch request; a list of one object is the probe that begins a
	 * list, not a list of its own.
	 */
	private record ApiCall(boolean watch, @Nullable String limit, long resourceVersion, int code) {

		boolean gone() {
			return this.code == 410;
		}

		boolean fullList() {
			return !this.watch && this.code == 200 && !"1".equals(this.limit);
		}

	}

}
