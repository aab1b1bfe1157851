package dev.kubereconciler.reliability;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ControllerState;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestConfiguration;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 3: the application context closes while reconciles are in flight. They finish
 * within {@code shutdown-timeout} and no new one starts; one that hangs past the timeout
 * is interrupted and reported, and the shutdown still completes. The drain runs in
 * parallel with the other beans of its lifecycle phase, as
 * {@code SmartLifecycle.stop(Runnable)} allows.
 */
@KubernetesTest
class GracefulShutdownTests {

	private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(3);

	ApiClient client;

	TestNamespace namespace;

	@Test
	void inFlightReconcilesFinishNoNewOneStartsAndAHangIsInterrupted() throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.properties("kube-reconciler.defaults.max-concurrent-reconciles=3",
					"kube-reconciler.controllers.slow.namespaces=" + this.namespace.name(),
					"kube-reconciler.shutdown-timeout=" + SHUTDOWN_TIMEOUT.toMillis() + "ms")
			.run();
		Slow slow = context.getBean(Slow.class);
		Controller controller = context.getBean(ControllerRegistry.class).controller("slow");
		Neighbour neighbour = context.getBean(Neighbour.class);
		CoreV1Api core = new CoreV1Api(this.client);
		for (String name : List.of("slow-1", "slow-2", "hangs")) {
			create(core, name);
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> slow.started.keySet().size() == 3);
		create(core, "late-1");
		create(core, "late-2");
		await().atMost(Duration.ofSeconds(20)).until(() -> controller.queue().depth() == 2);
		AtomicLong closed = new AtomicLong();
		long closeStarted = System.nanoTime();
		Thread closer = new Thread(() -> {
			context.close();
			closed.set(System.nanoTime());
		});
		closer.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> controller.state() == ControllerState.STOPPED);
		slow.release.countDown();
		await().atMost(SHUTDOWN_TIMEOUT.plusSeconds(10)).until(() -> closed.get() != 0);
		Duration shutdown = Duration.ofNanos(closed.get() - closeStarted);
		assertThat(slow.finished).containsExactlyInAnyOrder("slow-1", "slow-2");
		assertThat(slow.started).doesNotContainKeys("late-1", "late-2");
		assertThat(slow.interrupted).containsExactly("hangs");
		assertThat(slow.outcomes).containsEntry("hangs", ReconcileOutcome.ERROR)
			.containsEntry("slow-1", ReconcileOutcome.SUCCESS)
			.containsEntry("slow-2", ReconcileOutcome.SUCCESS);
		// the hang holds the shutdown for the timeout, then the rest is quick
		assertThat(shutdown).isBetween(SHUTDOWN_TIMEOUT, SHUTDOWN_TIMEOUT.plusSeconds(3));
		// the neighbour, stopped after the controllers in the same phase, did not wait
		// for the drain
		assertThat(neighbour.stoppedWhileDraining).isTrue();
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("shutdown-timeout", SHUTDOWN_TIMEOUT.toSeconds() + " s");
		figures.put("in flight at close; finished normally", "3; " + slow.finished.size());
		figures.put("queued at close; started after close",
				"2; " + slow.started.keySet().stream().filter((name) -> name.startsWith("late")).count());
		figures.put("hung past the timeout; interrupted and reported as error", "1; " + slow.interrupted.size());
		figures.put("context close took", String.format("%.2f s", shutdown.toNanos() / 1e9));
		Reliability.report("3-graceful-shutdown", "3. Graceful shutdown", figures);
	}

	private void create(CoreV1Api core, String name) throws Exception {
		core.createNamespacedConfigMap(this.namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
			.execute();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerRbacAutoConfiguration.class, NeighbourAutoConfiguration.class })
	@Import(KubernetesTestConfiguration.class)
	static class Application {

		@Bean
		Slow slow() {
			return new Slow();
		}

	}

	static class Slow implements ControllerListener {

		final Map<String, Long> started = new ConcurrentHashMap<>();

		final Set<String> finished = ConcurrentHashMap.newKeySet();

		final Set<String> interrupted = ConcurrentHashMap.newKeySet();

		final Map<String, ReconcileOutcome> outcomes = new ConcurrentHashMap<>();

		final CountDownLatch release = new CountDownLatch(1);

		@Reconciler(name = "slow", watches = V1ConfigMap.class)
		void reconcile(Request request) throws InterruptedException {
			this.started.put(request.name(), System.nanoTime());
			try {
				if (request.name().equals("hangs")) {
					new CountDownLatch(1).await();
				}
				this.release.await();
				this.finished.add(request.name());
			}
			catch (InterruptedException ex) {
				this.interrupted.add(request.name());
				throw ex;
			}
		}

		@Override
		public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
				Throwable error) {
			this.outcomes.put(request.name(), outcome);
		}

	}

	/**
	 * Registered after the controllers, so that Spring stops it after them in their
	 * phase.
	 */
	@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class)
	static class NeighbourAutoConfiguration {

		@Bean
		Neighbour neighbour(Slow slow) {
			return new Neighbour(slow);
		}

	}

	/**
	 * Another bean of the controllers' lifecycle phase; it records whether it was asked
	 * to stop while the hung reconcile still held the drain.
	 */
	static class Neighbour implements SmartLifecycle {

		private final Slow slow;

		private volatile boolean running;

		volatile Boolean stoppedWhileDraining;

		Neighbour(Slow slow) {
			this.slow = slow;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.stoppedWhileDraining = this.slow.interrupted.isEmpty();
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return ManagedControllers.PHASE;
		}

	}

}
