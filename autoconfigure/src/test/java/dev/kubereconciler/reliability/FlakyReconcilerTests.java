package dev.kubereconciler.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 1: a reconciler that fails 30% of the time, at random, while 1,000 ConfigMaps
 * are created and updated several times. Every object ends up reconciled successfully at
 * its latest resourceVersion, no key is ever held by two workers at once, and nothing is
 * lost.
 */
@KubernetesTest
class FlakyReconcilerTests {

	private static final int OBJECTS = Reliability.scaled(1000);

	private static final int UPDATES = 3;

	private final Random random = new Random(20261122);

	private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

	private final Map<String, String> reconciledVersion = new ConcurrentHashMap<>();

	private final AtomicInteger overlaps = new AtomicInteger();

	private final AtomicLong reconciles = new AtomicLong();

	private final AtomicLong failures = new AtomicLong();

	private final AtomicInteger mostInFlight = new AtomicInteger();

	private ControllerManager manager;

	ApiClient client;

	TestNamespace namespace;

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void everyObjectIsReconciledAtItsLatestVersionAndNoKeyTwiceAtOnce() throws Exception {
		this.manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("flaky")
				.namespaces(this.namespace.name())
				.maxConcurrentReconciles(4)
				// a fast backoff keeps the run short; the bucket of the default would
				// stretch ~1,000 retries over minutes
				.rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1)))
				.reconcile(this::reconcile))
			.shutdownTimeout(Duration.ofSeconds(10))
			.build();
		this.manager.start();
		long started = System.nanoTime();
		CoreV1Api core = new CoreV1Api(this.client);
		List<Reliability.ThrowingRunnable> writers = new ArrayList<>();
		for (int i = 0; i < OBJECTS; i++) {
			String name = "object-" + i;
			writers.add(() -> {
				V1ConfigMap current = core
					.createNamespacedConfigMap(this.namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("version", "0")))
					.execute();
				for (int version = 1; version <= UPDATES; version++) {
					current = core
						.replaceNamespacedConfigMap(name, this.namespace.name(),
								current.data(Map.of("version", String.valueOf(version))))
						.execute();
				}
			});
		}
		Reliability.inParallel(8, writers);
		long written = System.nanoTime();
		Map<String, String> latest = new LinkedHashMap<>();
		for (V1ConfigMap configMap : core.listNamespacedConfigMap(this.namespace.name()).execute().getItems()) {
			latest.put(configMap.getMetadata().getName(), configMap.getMetadata().getResourceVersion());
			assertThat(configMap.getData()).containsEntry("version", String.valueOf(UPDATES));
		}
		assertThat(latest).hasSize(OBJECTS);
		await().atMost(Duration.ofMinutes(3))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> latest.entrySet()
				.stream()
				.allMatch((entry) -> entry.getValue().equals(this.reconciledVersion.get(entry.getKey()))));
		long settled = System.nanoTime();
		assertThat(this.overlaps).as("keys held by two workers at once").hasValue(0);
		assertThat(this.failures.get()).isPositive();
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("objects", OBJECTS);
		figures.put("updates per object", UPDATES);
		figures.put("writes to the API server", OBJECTS * (1 + UPDATES));
		figures.put("reconciles", this.reconciles.get());
		figures.put("failed reconciles (30% at random, seed 20261122)", this.failures.get());
		figures.put("workers; most keys in flight at once", "4; " + this.mostInFlight.get());
		figures.put("keys held by two workers at once", this.overlaps.get());
		figures.put("objects not reconciled at their latest resourceVersion", 0);
		figures.put("writes took", seconds(written - started));
		figures.put("all objects settled after the last write", seconds(settled - written));
		Reliability.report("1-flaky-reconciler", "1. Flaky reconciler", figures);
	}

	private Result reconcile(Request request) {
		this.reconciles.incrementAndGet();
		if (!this.inFlight.add(request.key())) {
			this.overlaps.incrementAndGet();
		}
		this.mostInFlight.accumulateAndGet(this.inFlight.size(), Math::max);
		try {
			boolean fail;
			synchronized (this.random) {
				fail = this.random.nextDouble() < 0.3;
			}
			if (fail) {
				this.failures.incrementAndGet();
				throw new IllegalStateException("flaky on purpose");
			}
			Lister<V1ConfigMap> lister = this.manager.lister(V1ConfigMap.class);
			V1ConfigMap cached = lister.namespace(request.namespace()).get(request.name());
			if (cached != null) {
				this.reconciledVersion.put(request.name(), cached.getMetadata().getResourceVersion());
			}
			return Result.done();
		}
		finally {
			this.inFlight.remove(request.key());
		}
	}

	private static String seconds(long nanos) {
		return String.format("%.1f s", nanos / 1e9);
	}

}
