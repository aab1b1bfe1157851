package dev.kubereconciler.cache;

import java.time.Duration;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.metrics.ControllerMetrics;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.test.rbac.ApiRequest;
import dev.kubereconciler.test.rbac.ApiRequestRecorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link CacheOptions} and {@link FieldIndex}es against the real test API server: a
 * read-through type keeps no informer and each of its reads is a request, selectors limit
 * what an informer caches, an index finds objects across adds, updates and deletes (and
 * the context's own writes, in IndexReadAfterWriteIntegrationTests), and a mapped watch
 * looks its primaries up by index.
 */
@KubernetesTest
class CacheOptionsIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	private ControllerManager manager;

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void readThroughTypeKeepsNoInformerAndEveryReadReachesTheServer() throws ApiException {
		String ns = this.namespace.name();
		CoreV1Api core = new CoreV1Api(this.client);
		V1Secret password = secret("password", "first");
		password.getMetadata().labels(Map.of("read", "through"));
		core.createNamespacedSecret(ns, password).execute();
		ApiRequestRecorder.Recorded recorded = ApiRequestRecorder.record(this.client);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerMetrics metrics = new ControllerMetrics((name) -> null, () -> null);
		metrics.bindTo(registry);
		List<String> read = new CopyOnWriteArrayList<>();
		Set<String> workers = ConcurrentHashMap.newKeySet();
		AtomicInteger listed = new AtomicInteger();
		this.manager = ControllerManager.builder(recorded.client())
			.cacheOptions(CacheOptions.defaults().readThrough(V1Secret.class))
			.listener(metrics)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("reads-through")
				.namespaces(ns)
				.reconcile((configMap, context) -> {
					workers.add(Thread.currentThread().getName());
					context.get(V1Secret.class, ns, "password")
						.ifPresent((secret) -> read.add(new String(secret.getData().get("value"))));
					listed.set(context.list(V1Secret.class, ns, "read=through").size());
					return Result.done();
				}))
			.build();
		this.manager.start();
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.lister(V1Secret.class));
		core.createNamespacedConfigMap(ns, configMap("first", "password")).execute();
		await().atMost(TIMEOUT).until(() -> read.contains("first"));
		// no informer lags behind: the next read sees the server's newest version
		V1Secret secret = core.readNamespacedSecret("password", ns).execute();
		core.replaceNamespacedSecret("password", ns, secret.data(Map.of("value", "second".getBytes()))).execute();
		core.createNamespacedConfigMap(ns, configMap("second", "password")).execute();
		await().atMost(TIMEOUT).until(() -> read.contains("second"));
		this.manager.stop();
		List<ApiRequest> secretRequests = recorded.recorder()
			.allRequests()
			.stream()
			.filter((request) -> request.resource().equals("secrets"))
			.toList();
		assertThat(secretRequests).extracting(ApiRequest::verb).doesNotContain("watch");
		// the reconciles' reads, apart from the test's own on its thread
		List<ApiRequest> secretReads = secretRequests.stream()
			.filter((request) -> workers.contains(request.thread()))
			.toList();
		long gets = secretReads.stream().filter((request) -> request.verb().equals("get")).count();
		long lists = secretReads.stream().filter((request) -> request.verb().equals("list")).count();
		assertThat(gets).isEqualTo(read.size()).isGreaterThanOrEqualTo(2);
		assertThat(lists).isEqualTo(gets);
		assertThat(registry.get("kube.reconciler.cache.read.through.requests")
			.tags("type", "v1/Secret", "verb", "get")
			.counter()
			.count()).isEqualTo(gets);
		assertThat(registry.get("kube.reconciler.cache.read.through.requests")
			.tags("type", "v1/Secret", "verb", "list")
			.counter()
			.count()).isEqualTo(lists);
		assertThat(listed.get()).isEqualTo(1);
	}

	@Test
	void readThroughTypeThatIsWatchedKeepsItsInformerForEventsAndReadsFromTheServer() throws ApiException {
		String ns = this.namespace.name();
		CoreV1Api core = new CoreV1Api(this.client);
		List<String> readsThrough = new CopyOnWriteArrayList<>();
		List<String> colors = new CopyOnWriteArrayList<>();
		this.manager = ControllerManager.builder(this.client)
			.cacheOptions(CacheOptions.defaults().readThrough(V1ConfigMap.class))
			.listener(new ControllerListener() {
				@Override
				public void cacheReadThrough(String controller, String type, String verb) {
					readsThrough.add(type + " " + verb);
				}
			})
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("watched-read-through")
				.namespaces(ns)
				.labelSelector("watched=read-through")
				.reconcile((configMap, context) -> {
					context.get(V1ConfigMap.class, ns, configMap.getMetadata().getName())
						.ifPresent((read) -> colors.add(read.getData().get("secret")));
					return Result.done();
				}))
			.build();
		this.manager.start();
		// a watch needs an informer, as controller-runtime keeps the one a Watch starts
		assertThat(this.manager.lister(V1ConfigMap.class)).isNotNull();
		core.createNamespacedConfigMap(ns,
				configMap("watched", "blue").metadata(meta("watched").labels(Map.of("watched", "read-through"))))
			.execute();
		await().atMost(TIMEOUT).until(() -> colors.contains("blue"));
		assertThat(readsThrough).contains("v1/ConfigMap get");
	}

	@Test
	void selectorsLimitWhatIsCached() throws ApiException {
		String ns = this.namespace.name();
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespacedConfigMap(ns,
				configMap("kept", "s").metadata(meta("kept").labels(Map.of("tier", "cache"))))
			.execute();
		core.createNamespacedConfigMap(ns, configMap("unlabelled", "s")).execute();
		core.createNamespacedConfigMap(ns,
				configMap("excluded", "s").metadata(meta("excluded").labels(Map.of("tier", "cache"))))
			.execute();
		List<String> reconciled = new CopyOnWriteArrayList<>();
		this.manager = ControllerManager.builder(this.client)
			.cacheOptions(CacheOptions.defaults().selectors(V1ConfigMap.class, "tier=cache", "metadata.name!=excluded"))
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("selected")
				.namespaces(ns)
				.reconcile((request) -> {
					reconciled.add(request.name());
					return Result.done();
				}))
			.build();
		this.manager.start();
		await().atMost(TIMEOUT).until(() -> reconciled.contains("kept"));
		assertThat(this.manager.lister(V1ConfigMap.class).namespace(ns).list())
			.extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactly("kept");
		assertThat(reconciled).containsOnly("kept");
	}

	@Test
	void indexLookupFollowsAddsUpdatesAndDeletes() throws ApiException {
		String ns = this.namespace.name();
		CoreV1Api core = new CoreV1Api(this.client);
		AtomicReference<List<String>> found = new AtomicReference<>(List.of());
		this.manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("indexed")
				.namespaces(ns)
				.index(V1ConfigMap.class, "secret", CacheOptionsIntegrationTests::secretRef)
				.reconcileRequests((request, context) -> {
					found.set(names(context.listByIndex(V1ConfigMap.class, "secret", ns + "/index-s1")));
					return Result.done();
				}))
			.build();
		this.manager.start();
		core.createNamespacedConfigMap(ns, configMap("a", "index-s1")).execute();
		core.createNamespacedConfigMap(ns, configMap("b", "index-s2")).execute();
		await().atMost(TIMEOUT).until(() -> found.get().equals(List.of("a")));
		V1ConfigMap b = core.readNamespacedConfigMap("b", ns).execute();
		core.replaceNamespacedConfigMap("b", ns, b.data(Map.of("secret", "index-s1"))).execute();
		await().atMost(TIMEOUT).until(() -> found.get().equals(List.of("a", "b")));
		core.deleteNamespacedConfigMap("a", ns).execute();
		await().atMost(TIMEOUT).until(() -> found.get().equals(List.of("b")));
		V1ConfigMap moved = core.readNamespacedConfigMap("b", ns).execute();
		core.replaceNamespacedConfigMap("b", ns, moved.data(Map.of("secret", "index-s2"))).execute();
		await().atMost(TIMEOUT).until(() -> found.get().isEmpty());
	}

	@Test
	void mappedWatchByIndexReconcilesThePrimariesThatNameTheChangedSecret() throws ApiException {
		String ns = this.namespace.name();
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespacedSecret(ns, secret("s1", "x")).execute();
		core.createNamespacedSecret(ns, secret("s2", "x")).execute();
		core.createNamespacedConfigMap(ns, configMap("uses-s1-a", "s1")).execute();
		core.createNamespacedConfigMap(ns, configMap("uses-s1-b", "s1")).execute();
		core.createNamespacedConfigMap(ns, configMap("uses-s2", "s2")).execute();
		Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();
		this.manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("mapped-by-index")
				.namespaces(ns)
				.index(V1ConfigMap.class, "secret", CacheOptionsIntegrationTests::secretRef)
				.mapsByIndex(V1Secret.class, "secret",
						(secret) -> List.of(secret.getMetadata().getNamespace() + "/" + secret.getMetadata().getName()))
				.resyncPeriod(Duration.ZERO)
				.reconcile((request) -> {
					reconciles.computeIfAbsent(request.name(), (key) -> new AtomicInteger()).incrementAndGet();
					return Result.done();
				}))
			.build();
		this.manager.start();
		// the initial list: each ConfigMap once for itself, and once per initial add of
		// the Secret it names
		await().atMost(TIMEOUT)
			.until(() -> count(reconciles, "uses-s1-a") >= 1 && count(reconciles, "uses-s1-b") >= 1
					&& count(reconciles, "uses-s2") >= 1);
		AtomicReference<Map<String, Integer>> before = new AtomicReference<>();
		await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
			Map<String, Integer> now = snapshot(reconciles);
			return now.equals(before.getAndSet(now));
		});
		V1Secret s1 = core.readNamespacedSecret("s1", ns).execute();
		core.replaceNamespacedSecret("s1", ns, s1.data(Map.of("value", "y".getBytes()))).execute();
		await().atMost(TIMEOUT)
			.until(() -> count(reconciles, "uses-s1-a") == before.get().get("uses-s1-a") + 1
					&& count(reconciles, "uses-s1-b") == before.get().get("uses-s1-b") + 1);
		assertThat(count(reconciles, "uses-s2")).isEqualTo(before.get().get("uses-s2"));
	}

	@Test
	void mappedWatchByAnUndeclaredIndexIsRefusedAtBuild() {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("no-index")
			.mapsByIndex(V1Secret.class, "secret", (secret) -> List.of(secret.getMetadata().getName()))
			.reconcile((request) -> Result.done());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerManager.builder(this.client).controller(definition).build())
			.withMessageContaining("index 'secret' of V1ConfigMap")
			.withMessageContaining(".index(V1ConfigMap.class, \"secret\"");
	}

	private static List<String> secretRef(V1ConfigMap configMap) {
		String secret = (configMap.getData() != null) ? configMap.getData().get("secret") : null;
		return (secret != null) ? List.of(configMap.getMetadata().getNamespace() + "/" + secret) : List.of();
	}

	private static List<String> names(List<V1ConfigMap> configMaps) {
		return configMaps.stream().map((configMap) -> configMap.getMetadata().getName()).sorted().toList();
	}

	private static int count(Map<String, AtomicInteger> reconciles, String name) {
		AtomicInteger count = reconciles.get(name);
		return (count != null) ? count.get() : 0;
	}

	private static Map<String, Integer> snapshot(Map<String, AtomicInteger> reconciles) {
		Map<String, Integer> counts = new java.util.TreeMap<>();
		reconciles.forEach((name, count) -> counts.put(name, count.get()));
		return counts;
	}

	private static V1ObjectMeta meta(String name) {
		return new V1ObjectMeta().name(name);
	}

	private static V1ConfigMap configMap(String name, String secret) {
		return new V1ConfigMap().metadata(meta(name)).data(Map.of("secret", secret));
	}

	private static V1Secret secret(String name, String value) {
		return new V1Secret().metadata(meta(name)).data(Map.of("value", value.getBytes()));
	}

}
