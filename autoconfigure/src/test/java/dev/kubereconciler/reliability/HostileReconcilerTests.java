package dev.kubereconciler.reliability;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestConfiguration;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 4: reconcilers that return {@code null}, throw an {@link Error}, hang past the
 * reconcile timeout, or hang and ignore the interrupt. Each time the worker survives, the
 * key is retried through its limiter, and the key is never wedged: a later change
 * reconciles again.
 */
@KubernetesTest
class HostileReconcilerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	private ConfigurableApplicationContext context;

	private Hostile hostile;

	@BeforeEach
	void start() {
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("kube-reconciler.defaults.reconcile-timeout=1s",
					"kube-reconciler.defaults.max-concurrent-reconciles=4",
					"kube-reconciler.defaults.rate-limiter.type=exponential",
					"kube-reconciler.defaults.rate-limiter.base-delay=100ms",
					"kube-reconciler.defaults.rate-limiter.max-delay=2s",
					"kube-reconciler.controllers.hostile.namespaces=" + this.namespace.name(),
					"kube-reconciler.shutdown-timeout=2s")
			.run();
		this.hostile = this.context.getBean(Hostile.class);
	}

	@AfterEach
	void close() {
		this.hostile.release.countDown();
		this.context.close();
	}

	@Test
	void hostileReconcilersNeverKillAWorkerNorWedgeAKey() throws Exception {
		Controller controller = this.context.getBean(ManagedControllers.class).getManager().controller("hostile");
		CoreV1Api core = new CoreV1Api(this.client);
		long started = System.nanoTime();
		for (String name : List.of("returns-null", "throws-error", "hangs", "ignores-interrupts")) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
				.execute();
		}
		await().atMost(TIMEOUT)
			.until(() -> this.hostile.succeeded.keySet()
				.containsAll(List.of("returns-null", "throws-error", "hangs", "ignores-interrupts")));
		long settled = System.nanoTime();
		assertThat(this.hostile.outcomes).contains(ReconcileOutcome.ERROR, ReconcileOutcome.PANIC,
				ReconcileOutcome.TIMEOUT);
		assertThat(this.hostile.calls.get("returns-null")).hasValue(3);
		assertThat(this.hostile.calls.get("throws-error")).hasValue(3);
		assertThat(this.hostile.calls.get("hangs")).hasValue(2);
		assertThat(this.hostile.calls.get("ignores-interrupts")).hasValue(2);
		assertThat(this.hostile.interrupted).hasValue(1);
		// the workers are all still there, and every key takes new work
		assertThat(controller.queue().inFlight()).isLessThanOrEqualTo(1);
		for (String name : List.of("returns-null", "throws-error", "hangs")) {
			V1ConfigMap current = core.readNamespacedConfigMap(name, this.namespace.name()).execute();
			core.replaceNamespacedConfigMap(name, this.namespace.name(), current.data(Map.of("touched", "yes")))
				.execute();
		}
		await().atMost(TIMEOUT)
			.until(() -> this.hostile.succeeded.get("returns-null").get() == 2
					&& this.hostile.succeeded.get("throws-error").get() == 2
					&& this.hostile.succeeded.get("hangs").get() == 2);
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("reconcile timeout; abandon grace", "1 s; 5 s");
		figures.put("returns null twice: calls; gaps", this.hostile.describe("returns-null"));
		figures.put("throws StackOverflowError twice: calls; gaps", this.hostile.describe("throws-error"));
		figures.put("hangs once, interruptibly: calls; gaps", this.hostile.describe("hangs"));
		figures.put("hangs once, ignoring interrupts: calls; gaps", this.hostile.describe("ignores-interrupts"));
		figures.put("outcomes seen", this.hostile.outcomes.stream().distinct().sorted().toList());
		figures.put("all four keys reconciled successfully after", String.format("%.1f s", (settled - started) / 1e9));
		figures.put("keys wedged", 0);
		Reliability.report("4-hostile-reconcilers", "4. Hostile reconcilers", figures);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerRbacAutoConfiguration.class })
	@Import(KubernetesTestConfiguration.class)
	static class Application {

		@Bean
		Hostile hostile() {
			return new Hostile();
		}

	}

	static class Hostile implements ControllerListener {

		final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

		final Map<String, AtomicInteger> succeeded = new ConcurrentHashMap<>();

		final List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();

		final AtomicInteger interrupted = new AtomicInteger();

		final CountDownLatch release = new CountDownLatch(1);

		private final Map<String, List<Long>> times = new ConcurrentHashMap<>();

		String describe(String name) {
			List<Long> calls = this.times.get(name);
			StringBuilder gaps = new StringBuilder();
			for (int i = 1; i < calls.size(); i++) {
				gaps.append((i > 1) ? ", " : "").append((calls.get(i) - calls.get(i - 1)) / 1_000_000).append(" ms");
			}
			return calls.size() + "; " + gaps;
		}

		@Reconciler(name = "hostile", watches = V1ConfigMap.class)
		Result reconcile(Request request) throws InterruptedException {
			int call = this.calls.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet();
			this.times.computeIfAbsent(request.name(), (name) -> new CopyOnWriteArrayList<>()).add(System.nanoTime());
			switch (request.name()) {
				case "returns-null" -> {
					if (call <= 2) {
						return null;
					}
				}
				case "throws-error" -> {
					if (call <= 2) {
						throw new StackOverflowError("hostile on purpose");
					}
				}
				case "hangs" -> {
					if (call == 1) {
						try {
							new CountDownLatch(1).await();
						}
						catch (InterruptedException ex) {
							this.interrupted.incrementAndGet();
							throw ex;
						}
					}
				}
				case "ignores-interrupts" -> {
					if (call == 1) {
						awaitIgnoringInterrupts();
					}
				}
				default -> {
				}
			}
			this.succeeded.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet();
			return Result.done();
		}

		private void awaitIgnoringInterrupts() {
			while (this.release.getCount() > 0) {
				try {
					this.release.await();
				}
				catch (InterruptedException ex) {
					// hostile: swallow it and keep waiting
				}
			}
		}

		@Override
		public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
				Throwable error) {
			this.outcomes.add(outcome);
		}

	}

}
