package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
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
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Mapped watches against the real test API server: a Secret change reconciles exactly the
 * ConfigMaps that reference it.
 */
@KubernetesTest
class MappedWatchIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final Duration QUIET = Duration.ofSeconds(1);

	ApiClient client;

	TestNamespace namespace;

	private final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();

	private ControllerManager manager;

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void changingASecretReconcilesExactlyTheConfigMapsThatReferenceIt() throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		String ns = this.namespace.name();
		for (String secret : List.of("s1", "s2")) {
			core.createNamespacedSecret(ns, new V1Secret().metadata(new V1ObjectMeta().name(secret))).execute();
		}
		createConfigMap(core, "uses-s1-a", "s1");
		createConfigMap(core, "uses-s1-b", "s1");
		createConfigMap(core, "uses-s2", "s2");
		AtomicReference<ControllerManager> started = new AtomicReference<>();
		// the mapper reads the controller's own ConfigMap cache, as a map function should
		RequestMapper<V1Secret> referencing = (secret) -> started.get()
			.lister(V1ConfigMap.class)
			.list()
			.stream()
			.filter((configMap) -> configMap.getData() != null
					&& secret.getMetadata().getName().equals(configMap.getData().get("secret")))
			.map((configMap) -> new Request(configMap.getMetadata().getNamespace(), configMap.getMetadata().getName()))
			.toList();
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("mapped")
			.namespaces(ns)
			.maps(V1Secret.class, referencing)
			.reconcile((request) -> {
				this.reconciles.computeIfAbsent(request.name(), (key) -> new AtomicInteger()).incrementAndGet();
				return Result.done();
			});
		assertThat(definition.mappedTypes()).containsExactly(V1Secret.class);
		this.manager = ControllerManager.builder(this.client).controller(definition).build();
		started.set(this.manager);
		this.manager.start();
		await().atMost(TIMEOUT)
			.until(() -> this.reconciles.keySet().containsAll(List.of("uses-s1-a", "uses-s1-b", "uses-s2")));
		Map<String, Integer> before = snapshotWhenQuiet();
		V1Secret s1 = core.readNamespacedSecret("s1", ns).execute();
		core.replaceNamespacedSecret("s1", ns, s1.stringData(Map.of("password", "changed"))).execute();
		await().atMost(TIMEOUT)
			.until(() -> count("uses-s1-a") == before.get("uses-s1-a") + 1
					&& count("uses-s1-b") == before.get("uses-s1-b") + 1);
		Map<String, Integer> after = snapshotWhenQuiet();
		assertThat(after).containsEntry("uses-s1-a", before.get("uses-s1-a") + 1)
			.containsEntry("uses-s1-b", before.get("uses-s1-b") + 1)
			.containsEntry("uses-s2", before.get("uses-s2"));
	}

	@Test
	void mappedTypeIsReadFromTheContextAndAnUnwatchedTypeIsRefusedWithEveryWayToAddIt() throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		String ns = this.namespace.name();
		core.createNamespacedSecret(ns, new V1Secret().metadata(new V1ObjectMeta().name("read-me"))).execute();
		List<String> secretsRead = new CopyOnWriteArrayList<>();
		List<String> refusals = new CopyOnWriteArrayList<>();
		this.manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("reads-mapped")
				.namespaces(ns)
				.maps(V1Secret.class, (secret) -> List.of())
				.reconcile((configMap, context) -> {
					String secret = configMap.getData().get("secret");
					context.get(V1Secret.class, ns, secret)
						.ifPresent((found) -> secretsRead.add(found.getMetadata().getName()));
					try {
						context.list(V1ServiceAccount.class, ns, "");
					}
					catch (IllegalArgumentException ex) {
						refusals.add(ex.getMessage());
					}
					return Result.done();
				}))
			.build();
		this.manager.start();
		createConfigMap(core, "reader", "read-me");
		await().atMost(TIMEOUT).until(() -> !refusals.isEmpty());
		assertThat(secretsRead).containsExactly("read-me");
		assertThat(refusals.get(0)).contains(V1ServiceAccount.class.getName())
			.contains("watches")
			.contains("owns")
			.contains("maps");
	}

	private Map<String, Integer> snapshotWhenQuiet() {
		AtomicReference<Map<String, Integer>> last = new AtomicReference<>(Map.of());
		await().atMost(TIMEOUT).pollInterval(QUIET).until(() -> {
			Map<String, Integer> now = snapshot();
			return now.equals(last.getAndSet(now));
		});
		return last.get();
	}

	private Map<String, Integer> snapshot() {
		Map<String, Integer> counts = new java.util.TreeMap<>();
		this.reconciles.forEach((name, count) -> counts.put(name, count.get()));
		return counts;
	}

	private int count(String name) {
		AtomicInteger count = this.reconciles.get(name);
		return (count != null) ? count.get() : 0;
	}

	private void createConfigMap(CoreV1Api core, String name, String secret) throws ApiException {
		core.createNamespacedConfigMap(this.namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("secret", secret)))
			.execute();
	}

}
