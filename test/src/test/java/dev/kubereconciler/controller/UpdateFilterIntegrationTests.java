package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.UpdateFilter;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Event filters against the real test API server: the status-write loop that
 * {@code generation-changed} prevents, and the drops that the filters count.
 */
@KubernetesTest
class UpdateFilterIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	// long enough for a status write's update event to come back and be reconciled
	private static final Duration QUIET = Duration.ofSeconds(2);

	ApiClient client;

	TestNamespace namespace;

	// every test's objects stay in the class's namespace: count each test's own
	// object only
	private final Map<String, AtomicInteger> reconciled = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> drops = new ConcurrentHashMap<>();

	private ControllerManager manager;

	private Gadgets gadgets;

	@BeforeEach
	void installCrd() throws ApiException {
		Gadget.install(this.client);
		this.gadgets = new Gadgets(this.client, this.namespace.name());
	}

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void generationChangedReconcilesOncePerSpecChangeThoughEveryReconcileWritesStatus() throws ApiException {
		start(ControllerDefinition.builder(Gadget.class)
			.named("gadgets")
			.namespaces(this.namespace.name())
			.updateFilters(UpdateFilter.GENERATION_CHANGED)
			.reconcile(writingStatus("calm")));
		this.gadgets.create("calm", "shade-1");
		await().atMost(TIMEOUT).until(() -> count("calm").get() == 1);
		// the status write comes back as an update with the same generation, and
		// is dropped
		await().atMost(TIMEOUT).until(() -> drops("generation-changed") == 1);
		await().during(QUIET).atMost(TIMEOUT).until(() -> count("calm").get() == 1);
		for (int shade = 2; shade <= 4; shade++) {
			this.gadgets.patchSpec("calm", "{\"color\":\"shade-" + shade + "\"}");
			int expected = shade;
			await().atMost(TIMEOUT).until(() -> count("calm").get() == expected);
			await().atMost(TIMEOUT).until(() -> drops("generation-changed") == expected);
		}
		await().during(QUIET).atMost(TIMEOUT).until(() -> count("calm").get() == 4);
		assertThat(drops("generation-changed")).isEqualTo(4);
	}

	@Test
	void withoutAFilterEveryStatusWriteReconcilesAgain() throws ApiException {
		start(ControllerDefinition.builder(Gadget.class)
			.named("looping")
			.namespaces(this.namespace.name())
			.reconcile(writingStatus("loop")));
		this.gadgets.create("loop", "shade-1");
		// each reconcile's status write is an update event that reconciles once
		// more, forever
		await().atMost(TIMEOUT).until(() -> count("loop").get() > 20);
		this.manager.stop();
		assertThat(this.drops).isEmpty();
	}

	@Test
	void labelsChangedPassesLabelChangesOnlyAndCreatesAndDeletesAlwaysPass() throws ApiException {
		start(ControllerDefinition.builder(V1ConfigMap.class)
			.named("labels")
			.namespaces(this.namespace.name())
			.updateFilters(UpdateFilter.LABELS_CHANGED, UpdateFilter.RESOURCE_VERSION_CHANGED)
			.reconcile((request) -> {
				count(request.name()).incrementAndGet();
				return Result.done();
			}));
		CoreV1Api core = new CoreV1Api(this.client);
		String ns = this.namespace.name();
		V1ConfigMap created = core
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("labelled")))
			.execute();
		await().atMost(TIMEOUT).until(() -> count("labelled").get() == 1);
		V1ConfigMap updated = core.replaceNamespacedConfigMap("labelled", ns, created.data(Map.of("a", "b"))).execute();
		await().atMost(TIMEOUT).until(() -> drops("labels-changed") == 1);
		updated.getMetadata().labels(Map.of("tier", "web"));
		core.replaceNamespacedConfigMap("labelled", ns, updated).execute();
		await().atMost(TIMEOUT).until(() -> count("labelled").get() == 2);
		core.deleteNamespacedConfigMap("labelled", ns).execute();
		await().atMost(TIMEOUT).until(() -> count("labelled").get() == 3);
		// ANDed in order: the data change stopped at the first filter, so the second
		// dropped nothing
		assertThat(drops("resource-version-changed")).isZero();
	}

	private ReconcileFunction writingStatus(String name) {
		return (request) -> {
			int count = count(request.name()).incrementAndGet();
			if (request.name().equals(name)) {
				// a new value every time, so that every write changes the object
				this.gadgets.patchStatus(name, "{\"reconciles\":" + count + "}");
			}
			return Result.done();
		};
	}

	private AtomicInteger count(String name) {
		return this.reconciled.computeIfAbsent(name, (key) -> new AtomicInteger());
	}

	private int drops(String filter) {
		AtomicInteger count = this.drops.get(filter);
		return (count != null) ? count.get() : 0;
	}

	private void start(ControllerDefinition definition) {
		this.manager = ControllerManager.builder(this.client).controller(definition).listener(new ControllerListener() {

			@Override
			public void updateFiltered(String controller, String filter) {
				UpdateFilterIntegrationTests.this.drops.computeIfAbsent(filter, (key) -> new AtomicInteger())
					.incrementAndGet();
			}

		}).build();
		this.manager.start();
	}

}
