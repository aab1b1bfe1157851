package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.source.ChannelSource;
import dev.kubereconciler.source.Source;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sources against the real test API server: an external change seen by a poll, a pushed
 * key and {@code reconcileAll()} each reconcile exactly the objects they name, once.
 */
@KubernetesTest
class SourcesIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final Duration QUIET = Duration.ofMillis(500);

	private static final Duration PERIOD = Duration.ofMillis(100);

	private static final List<String> NAMES = List.of("a", "b", "c");

	ApiClient client;

	TestNamespace namespace;

	private final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();

	private ControllerManager manager;

	@BeforeEach
	void createConfigMaps() throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		for (String name : NAMES) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
				.execute();
		}
	}

	@AfterEach
	void stop() throws ApiException {
		if (this.manager != null) {
			this.manager.stop();
		}
		// the namespace is the class's: the next test starts from the same three objects
		CoreV1Api core = new CoreV1Api(this.client);
		for (String name : NAMES) {
			core.deleteNamespacedConfigMap(name, this.namespace.name()).execute();
		}
	}

	@Test
	void aPolledExternalChangeReconcilesItsObjectExactlyOnce() {
		Map<Request, String> external = new ConcurrentHashMap<>();
		NAMES.forEach((name) -> external.put(key(name), "provisioned"));
		AtomicInteger polls = new AtomicInteger();
		start(definition("polled").source(Source.polling("inventory", PERIOD, () -> {
			polls.incrementAndGet();
			return Map.copyOf(external);
		})));
		Map<String, Integer> before = snapshotWhenQuiet();
		external.put(key("b"), "degraded");
		await().atMost(TIMEOUT).until(() -> count("b") == before.get("b") + 1);
		// several more polls that see the same state reconcile nothing more
		int seen = polls.get();
		await().atMost(TIMEOUT).until(() -> polls.get() >= seen + 5);
		assertThat(snapshotWhenQuiet())
			.isEqualTo(Map.of("a", before.get("a"), "b", before.get("b") + 1, "c", before.get("c")));
	}

	@Test
	void aPerObjectPollReconcilesTheObjectWhoseExternalStateChangedExactlyOnce() {
		Map<String, String> external = new ConcurrentHashMap<>();
		NAMES.forEach((name) -> external.put(name, "provisioned"));
		AtomicInteger polls = new AtomicInteger();
		start(definition("per-object").pollEach("provider", PERIOD, (configMap) -> {
			polls.incrementAndGet();
			return external.get(configMap.getMetadata().getName());
		}));
		Map<String, Integer> before = snapshotWhenQuiet();
		external.put("c", "deleted upstream");
		await().atMost(TIMEOUT).until(() -> count("c") == before.get("c") + 1);
		int seen = polls.get();
		await().atMost(TIMEOUT).until(() -> polls.get() >= seen + 3 * NAMES.size());
		assertThat(snapshotWhenQuiet())
			.isEqualTo(Map.of("a", before.get("a"), "b", before.get("b"), "c", before.get("c") + 1));
	}

	@Test
	void aPushedKeyIsReconciledOnce() {
		ChannelSource webhook = Source.channel("webhook");
		start(definition("pushed").source(webhook));
		Map<String, Integer> before = snapshotWhenQuiet();
		assertThat(webhook.offer(key("a"))).isTrue();
		await().atMost(TIMEOUT).until(() -> count("a") == before.get("a") + 1);
		assertThat(snapshotWhenQuiet())
			.isEqualTo(Map.of("a", before.get("a") + 1, "b", before.get("b"), "c", before.get("c")));
	}

	@Test
	void reconcileAllReconcilesEveryCachedPrimaryOnce() {
		start(definition("all"));
		Map<String, Integer> before = snapshotWhenQuiet();
		this.manager.controller("all").reconcileAll();
		assertThat(snapshotWhenQuiet())
			.isEqualTo(Map.of("a", before.get("a") + 1, "b", before.get("b") + 1, "c", before.get("c") + 1));
	}

	private ControllerDefinitionBuilder<V1ConfigMap> definition(String name) {
		return ControllerDefinition.builder(V1ConfigMap.class).named(name).namespaces(this.namespace.name());
	}

	private void start(ControllerDefinitionBuilder<V1ConfigMap> builder) {
		ControllerDefinition definition = builder.reconcile((request) -> {
			this.reconciles.computeIfAbsent(request.name(), (key) -> new AtomicInteger()).incrementAndGet();
			return Result.done();
		});
		this.manager = ControllerManager.builder(this.client).controller(definition).build();
		this.manager.start();
		await().atMost(TIMEOUT).until(() -> this.reconciles.keySet().containsAll(NAMES));
	}

	private Request key(String name) {
		return new Request(this.namespace.name(), name);
	}

	private int count(String name) {
		AtomicInteger count = this.reconciles.get(name);
		return (count != null) ? count.get() : 0;
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
		Map<String, Integer> counts = new TreeMap<>();
		this.reconciles.forEach((name, count) -> counts.put(name, count.get()));
		return counts;
	}

}
