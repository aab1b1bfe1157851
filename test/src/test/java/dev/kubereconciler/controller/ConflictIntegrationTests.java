package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.metrics.ControllerMetrics;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A write conflict (HTTP 409) against the real test API server: retried through the
 * limiter like any error, logged at DEBUG, and counted apart.
 */
@KubernetesTest
class ConflictIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final Logger logger = (Logger) LoggerFactory.getLogger(WorkQueueController.class);

	private Level level;

	private ControllerManager manager;

	@BeforeEach
	void captureLogs() {
		this.level = this.logger.getLevel();
		this.logger.setLevel(Level.DEBUG);
		this.logs.start();
		this.logger.addAppender(this.logs);
	}

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
		this.logger.detachAppender(this.logs);
		this.logger.setLevel(this.level);
	}

	@Test
	void aStaleUpdateIsRetriedLoggedAtDebugAndCountedAsAConflict() throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		String ns = this.namespace.name();
		V1ConfigMap stale = core
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("contended")))
			.execute();
		// someone else writes first: the copy read above is now stale
		core.replaceNamespacedConfigMap("contended", ns,
				core.readNamespacedConfigMap("contended", ns).execute().data(Map.of("by", "other")))
			.execute();
		AtomicInteger attempts = new AtomicInteger();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		AtomicReference<ControllerManager> started = new AtomicReference<>();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerMetrics metrics = new ControllerMetrics((name) -> started.get().controller(name), () -> null);
		metrics.bindTo(registry);
		this.manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("contended")
				.namespaces(ns)
				.reconcile((request) -> {
					if (attempts.incrementAndGet() == 1) {
						try {
							core.replaceNamespacedConfigMap("contended", ns, stale.data(Map.of("by", "me"))).execute();
						}
						catch (ApiException ex) {
							errors.add(ex);
							throw new IllegalStateException("Could not update", ex);
						}
					}
					return Result.done();
				}))
			.listener(metrics)
			.build();
		started.set(this.manager);
		this.manager.start();
		await().atMost(TIMEOUT).until(() -> attempts.get() >= 2);
		assertThat(errors).singleElement()
			.satisfies((error) -> assertThat(((ApiException) error).getCode()).isEqualTo(409));
		assertThat(registry.get("kube.reconciler.reconcile.conflicts").tag("controller", "contended").counter().count())
			.isEqualTo(1.0);
		assertThat(registry.get("controller.runtime.reconcile.errors").tag("controller", "contended").counter().count())
			.isEqualTo(1.0);
		assertThat(this.logs.list).filteredOn((event) -> event.getFormattedMessage().contains("contended"))
			.filteredOn((event) -> event.getLevel().isGreaterOrEqual(Level.WARN))
			.isEmpty();
		assertThat(this.logs.list)
			.anySatisfy((event) -> assertThat(event.getFormattedMessage()).contains("hit a conflict"))
			.filteredOn((event) -> event.getFormattedMessage().contains("hit a conflict"))
			.allSatisfy((event) -> assertThat(event.getLevel()).isEqualTo(Level.DEBUG));
	}

	@Test
	void findsA409AnywhereInTheCauseChain() {
		ApiException conflict = new ApiException(409, "Conflict");
		assertThat(ReconcileOutcome.isConflict(new RuntimeException(new IllegalStateException(conflict)))).isTrue();
		RuntimeException suppressing = new RuntimeException("outer");
		suppressing.addSuppressed(conflict);
		assertThat(ReconcileOutcome.isConflict(suppressing)).isTrue();
		assertThat(ReconcileOutcome.isConflict(new RuntimeException(new ApiException(404, "Not Found")))).isFalse();
		assertThat(ReconcileOutcome.isConflict(null)).isFalse();
	}

}
