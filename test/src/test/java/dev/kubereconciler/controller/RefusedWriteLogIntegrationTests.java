package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A write that the real API server refuses is logged with the server's reason and
 * message, the write it was and the object it was for, on every retry, and with its stack
 * trace once.
 */
@KubernetesTest
class RefusedWriteLogIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private Level level;

	private ControllerManager manager;

	@BeforeEach
	void captureLogs() {
		Logger logger = (Logger) LoggerFactory.getLogger(WorkQueueController.class);
		this.level = logger.getLevel();
		logger.setLevel(Level.WARN);
		this.logs.start();
		logger.addAppender(this.logs);
	}

	@AfterEach
	void restoreLogs() {
		if (this.manager != null) {
			this.manager.stop();
		}
		Logger logger = (Logger) LoggerFactory.getLogger(WorkQueueController.class);
		logger.detachAppender(this.logs);
		logger.setLevel(this.level);
	}

	@Test
	void refusedFinalizerAdditionLogsTheServersReasonTheWriteAndTheObject() throws ApiException {
		// a finalizer with a domain, as the framework checks, but a name part the API
		// server refuses
		String finalizer = "test.kubereconciler.dev/not a name";
		start(ControllerDefinition.builder(V1ConfigMap.class)
			.named("held")
			.namespaces(this.namespace.name())
			.labelSelector("test=held")
			.finalizer(finalizer, (configMap, context) -> Result.done())
			.reconcile((configMap, context) -> Result.done()));
		create("held", "b");
		List<ILoggingEvent> retries = awaitRetries("b");
		assertThat(retries).allSatisfy((event) -> assertThat(event.getFormattedMessage())
			.contains("finalizer addition of ConfigMap " + this.namespace.name() + "/b failed: 422 Invalid: ")
			.contains("metadata.finalizers: Invalid value: \"" + finalizer + "\"")
			.doesNotContain("HTTP response body"));
		// the same refusal each time: its stack trace once
		assertThat(retries).filteredOn((event) -> event.getThrowableProxy() != null).hasSize(1);
	}

	@Test
	void refusedUpdateLogsTheServersReasonTheWriteAndTheObject() throws ApiException {
		start(ControllerDefinition.builder(V1ConfigMap.class)
			.named("labeller")
			.namespaces(this.namespace.name())
			.labelSelector("test=labeller")
			.reconcile((configMap, context) -> {
				configMap.getMetadata().putLabelsItem("tier", "not a label value");
				context.update(configMap);
				return Result.done();
			}));
		create("labeller", "c");
		assertThat(awaitRetries("c")).allSatisfy((event) -> assertThat(event.getFormattedMessage())
			.contains("update of ConfigMap " + this.namespace.name() + "/c failed: 422 Invalid: ")
			.contains("metadata.labels: Invalid value: \"not a label value\"")
			.doesNotContain("HTTP response body"));
	}

	private void start(ControllerDefinition definition) {
		this.manager = ControllerManager.builder(this.client).controller(definition).build();
		this.manager.start();
	}

	private void create(String test, String name) throws ApiException {
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("test", test))))
			.execute();
	}

	private List<ILoggingEvent> awaitRetries(String name) {
		String prefix = "Reconcile of " + this.namespace.name() + "/" + name + " ";
		await().atMost(TIMEOUT)
			.until(() -> List.copyOf(this.logs.list)
				.stream()
				.filter((event) -> event.getFormattedMessage().startsWith(prefix))
				.count() >= 3);
		return List.copyOf(this.logs.list)
			.stream()
			.filter((event) -> event.getFormattedMessage().startsWith(prefix))
			.toList();
	}

}
