package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerState;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An annotated method reconciles ConfigMaps of the real test API server, and YAML for its
 * controller changes its concurrency and its limiter over the annotation's.
 */
@KubernetesTest
@SpringBootTest(classes = ReconcilerMethodIntegrationTests.Application.class,
		properties = { "kube-reconciler.controllers.annotated.max-concurrent-reconciles=4",
				"kube-reconciler.controllers.annotated.rate-limiter.type=fast-slow",
				"kube-reconciler.controllers.annotated.rate-limiter.fast-delay=50ms",
				"kube-reconciler.controllers.annotated.rate-limiter.slow-delay=1500ms",
				"kube-reconciler.controllers.annotated.rate-limiter.max-fast-attempts=2",
				"kube-reconciler.shutdown-timeout=5s" })
class ReconcilerMethodIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@Autowired
	private ManagedControllers controllers;

	@Autowired
	private Annotated annotated;

	ApiClient client;

	TestNamespace namespace;

	@Test
	void annotatedMethodReconcilesWithThePropertiesConcurrency() throws ApiException {
		Controller controller = this.controllers.getManager().controller("annotated");
		assertThat(controller.state()).isEqualTo(ControllerState.RUNNING);
		assertThat(controller.definition().maxConcurrentReconciles()).isEqualTo(4);
		for (int i = 0; i < 8; i++) {
			create("parallel-" + i);
		}
		await().atMost(TIMEOUT).until(() -> this.annotated.done.size() == 8);
		// the annotation says 1 worker; the properties say 4, and 4 reconciles ran
		// at once
		assertThat(this.annotated.mostAtOnce).hasValue(4);
	}

	@Test
	void failingKeyIsRetriedOnThePropertiesLimiter() throws ApiException {
		Controller controller = this.controllers.getManager().controller("annotated");
		assertThat(controller.rateLimiter().state().type()).isEqualTo("fast-slow");
		create("fail-always");
		await().atMost(TIMEOUT).until(() -> this.annotated.failures.size() >= 4);
		List<Long> attempts = List.copyOf(this.annotated.failures);
		long first = gapMillis(attempts, 1);
		long second = gapMillis(attempts, 2);
		long third = gapMillis(attempts, 3);
		// fast-slow: two fast retries of 50 ms, then slow ones of 1500 ms; never early
		assertThat(first).isBetween(50L, 1000L);
		assertThat(second).isBetween(50L, 1000L);
		assertThat(third).isGreaterThanOrEqualTo(1500L);
		assertThat(controller.queue().numRequeues(new Request(this.namespace.name(), "fail-always")))
			.isGreaterThanOrEqualTo(4);
	}

	private void create(String name) throws ApiException {
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("test", "annotated"))))
			.execute();
	}

	private static long gapMillis(List<Long> attempts, int index) {
		return TimeUnit.NANOSECONDS.toMillis(attempts.get(index) - attempts.get(index - 1));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerRbacAutoConfiguration.class })
	static class Application {

		@Bean
		Annotated annotated() {
			return new Annotated();
		}

	}

	static class Annotated {

		final List<Long> failures = new CopyOnWriteArrayList<>();

		final Map<String, Boolean> done = new ConcurrentHashMap<>();

		final AtomicInteger mostAtOnce = new AtomicInteger();

		private final AtomicInteger atOnce = new AtomicInteger();

		private final CountDownLatch fourAtOnce = new CountDownLatch(4);

		@Reconciler(name = "annotated", watches = V1ConfigMap.class, labelSelector = "test=annotated",
				maxConcurrentReconciles = 1)
		Result reconcile(Request request) throws InterruptedException {
			if (request.name().startsWith("fail")) {
				this.failures.add(System.nanoTime());
				throw new IllegalStateException("fails on purpose");
			}
			this.mostAtOnce.accumulateAndGet(this.atOnce.incrementAndGet(), Math::max);
			try {
				// hold the worker until four reconciles run together, or give up after
				// a while
				this.fourAtOnce.countDown();
				this.fourAtOnce.await(5, TimeUnit.SECONDS);
			}
			finally {
				this.atOnce.decrementAndGet();
			}
			this.done.put(request.name(), true);
			return Result.done();
		}

	}

}
