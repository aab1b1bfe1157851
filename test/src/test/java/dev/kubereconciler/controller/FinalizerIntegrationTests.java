package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.kubereconciler.internal.cache.ScopedListerWatcher;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import dev.kubereconciler.manager.ControllerManager;

/**
 * The finalizer lifecycle of a controller with a finalizer against the real test API
 * server: added before the first reconcile, cleanup once deletion is requested, removal
 * when the cleanup succeeds, and cleanup of an object deleted while no controller ran.
 */
@KubernetesTest
class FinalizerIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String FINALIZER = "test.kubereconciler.dev/cleanup";

	@RegisterExtension
	final StartedManagers managers = new StartedManagers();

	private final List<List<String>> finalizersSeen = new CopyOnWriteArrayList<>();

	private final List<Boolean> heldAtCleanup = new CopyOnWriteArrayList<>();

	private final AtomicInteger cleanups = new AtomicInteger();

	ApiClient client;

	TestNamespace namespace;

	private CoreV1Api core;

	@BeforeEach
	void setUp() {
		this.core = new CoreV1Api(this.client);
	}

	@Test
	void finalizerIsAddedBeforeTheFirstReconcileAndRemovedAfterTheCleanup() throws ApiException {
		start("lifecycle", "lifecycle", (configMap, context) -> Result.done());
		create("lifecycle");
		await().atMost(TIMEOUT).until(() -> !this.finalizersSeen.isEmpty());
		// the reconcile already saw its finalizer: it was added before
		assertThat(this.finalizersSeen.get(0)).contains(FINALIZER);
		assertThat(read("lifecycle").getMetadata().getFinalizers()).containsExactly(FINALIZER);
		assertThat(this.cleanups).hasValue(0);
		this.core.deleteNamespacedConfigMap("lifecycle", this.namespace.name()).execute();
		await().atMost(TIMEOUT).until(() -> !exists("lifecycle"));
		assertThat(this.cleanups).hasValue(1);
		assertThat(this.heldAtCleanup).containsExactly(true);
		assertThat(this.managers.errors()).isEmpty();
	}

	@Test
	void failingCleanupIsRetriedAndKeepsTheFinalizerUntilItSucceeds() throws ApiException {
		start("flaky-cleanup", "flaky", (configMap, context) -> {
			if (this.cleanups.get() < 3) {
				throw new IllegalStateException("cleanup failure " + this.cleanups.get());
			}
			return Result.done();
		});
		create("flaky");
		await().atMost(TIMEOUT).until(() -> !this.finalizersSeen.isEmpty());
		this.core.deleteNamespacedConfigMap("flaky", this.namespace.name()).execute();
		await().atMost(TIMEOUT).until(() -> !exists("flaky"));
		// two failures, each retried through the limiter, then the success removed
		// the finalizer
		assertThat(this.cleanups).hasValue(3);
		assertThat(this.heldAtCleanup).containsExactly(true, true, true);
		assertThat(this.managers.errorMessages()).containsExactly("cleanup failure 1", "cleanup failure 2");
	}

	@Test
	void cleanupDoneWithAPriorityRemovesTheFinalizer() throws ApiException {
		start("prioritized-cleanup", "prioritized", (configMap, context) -> Result.done().withPriority(7));
		create("prioritized");
		await().atMost(TIMEOUT).until(() -> !this.finalizersSeen.isEmpty());
		this.core.deleteNamespacedConfigMap("prioritized", this.namespace.name()).execute();
		await().atMost(TIMEOUT).until(() -> !exists("prioritized"));
		assertThat(this.cleanups).hasValue(1);
		assertThat(this.managers.errors()).isEmpty();
	}

	@Test
	void cleanupReturningNullIsAnErrorThatKeepsTheFinalizerAndIsRetried() throws ApiException {
		start("null-cleanup", "null", (configMap, context) -> (this.cleanups.get() < 2) ? null : Result.done());
		create("null");
		await().atMost(TIMEOUT).until(() -> !this.finalizersSeen.isEmpty());
		this.core.deleteNamespacedConfigMap("null", this.namespace.name()).execute();
		await().atMost(TIMEOUT).until(() -> !exists("null"));
		// the null kept the finalizer: the cleanup ran again, through the limiter
		assertThat(this.cleanups).hasValue(2);
		assertThat(this.heldAtCleanup).containsExactly(true, true);
		assertThat(this.managers.errorMessages()).singleElement()
			.satisfies((message) -> assertThat(message).contains("returned null"));
	}

	@Test
	void keyQueuedAgainDuringTheCleanupDoesNotCleanUpTwice() throws ApiException {
		// the watch is held from inside the cleanup: when the key comes back, the
		// informer still holds the object with its finalizer, which the server has
		// already removed, with the object
		GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> api = new GenericKubernetesApi<>(V1ConfigMap.class,
				V1ConfigMapList.class, "", "v1", "configmaps", this.client);
		HeldWatch<V1ConfigMap, V1ConfigMapList> watch = new HeldWatch<>(
				new ScopedListerWatcher<>(api, this.namespace.name(), "finalizer-test=twice"));
		SharedInformerFactory factory = new SharedInformerFactory(this.client);
		factory.sharedIndexInformerFor(watch, V1ConfigMap.class, 0);
		AtomicReference<ControllerManager> manager = new AtomicReference<>();
		AtomicInteger reconcilesAfterCleanup = new AtomicInteger();
		manager.set(this.managers.start(ControllerManager.builder(this.client)
			.informerFactory(factory)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("twice")
				.namespaces(this.namespace.name())
				.labelSelector("finalizer-test=twice")
				.finalizer(FINALIZER, (configMap, context) -> {
					if (this.cleanups.incrementAndGet() == 1) {
						watch.hold();
						// another event, such as an owned object's deletion, queues the
						// key again while the cleanup runs
						manager.get().controller("twice").enqueue(context.request());
					}
					return Result.done();
				})
				.reconcile((configMap, context) -> {
					if (this.cleanups.get() > 0) {
						reconcilesAfterCleanup.incrementAndGet();
					}
					List<String> finalizers = configMap.getMetadata().getFinalizers();
					this.finalizersSeen.add((finalizers != null) ? List.copyOf(finalizers) : List.of());
					return Result.done();
				}))));
		try {
			create("twice");
			await().atMost(TIMEOUT).until(() -> !this.finalizersSeen.isEmpty());
			this.core.deleteNamespacedConfigMap("twice", this.namespace.name()).execute();
			await().atMost(TIMEOUT).until(() -> !exists("twice"));
			// the queued key ran, and any retry of it, with the informer still behind
			Controller controller = manager.get().controller("twice");
			await().during(Duration.ofSeconds(1))
				.atMost(TIMEOUT)
				.until(() -> !this.managers.errors().isEmpty() || (controller.queue().depth() == 0
						&& controller.queue().waiting() == 0 && controller.queue().inFlight() == 0));
		}
		finally {
			watch.release();
		}
		assertThat(this.cleanups).hasValue(1);
		assertThat(reconcilesAfterCleanup).hasValue(0);
		assertThat(this.managers.errors()).isEmpty();
	}

	@Test
	void objectDeletedWhileNoControllerRanIsCleanedUpOnRestart() throws ApiException {
		ControllerManager first = start("restart", "restart", (configMap, context) -> Result.done());
		create("restart");
		await().atMost(TIMEOUT).until(() -> read("restart").getMetadata().getFinalizers() != null);
		first.stop();
		this.core.deleteNamespacedConfigMap("restart", this.namespace.name()).execute();
		V1ConfigMap held = read("restart");
		assertThat(held.getMetadata().getDeletionTimestamp()).isNotNull();
		assertThat(this.cleanups).hasValue(0);
		start("restart", "restart", (configMap, context) -> Result.done());
		await().atMost(TIMEOUT).until(() -> !exists("restart"));
		assertThat(this.cleanups).hasValue(1);
		assertThat(this.managers.errors()).isEmpty();
	}

	private ControllerManager start(String name, String label, Cleaner<V1ConfigMap> cleanup) {
		Cleaner<V1ConfigMap> counting = (configMap, context) -> {
			this.cleanups.incrementAndGet();
			this.heldAtCleanup
				.add(read(configMap.getMetadata().getName()).getMetadata().getFinalizers().contains(FINALIZER));
			return cleanup.cleanup(configMap, context);
		};
		return this.managers.start(ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named(name)
				.namespaces(this.namespace.name())
				.labelSelector("finalizer-test=" + label)
				.rateLimiter(RateLimiters.exponential(Duration.ofMillis(20), Duration.ofSeconds(1)))
				.finalizer(FINALIZER, counting)
				.reconcile((configMap, context) -> {
					List<String> finalizers = configMap.getMetadata().getFinalizers();
					this.finalizersSeen.add((finalizers != null) ? List.copyOf(finalizers) : List.of());
					return Result.done();
				})));
	}

	private void create(String name) throws ApiException {
		this.core
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("finalizer-test", name)))
						.data(Map.of("key", "value")))
			.execute();
	}

	private V1ConfigMap read(String name) throws ApiException {
		return this.core.readNamespacedConfigMap(name, this.namespace.name()).execute();
	}

	private boolean exists(String name) throws ApiException {
		try {
			read(name);
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw ex;
		}
	}

}
