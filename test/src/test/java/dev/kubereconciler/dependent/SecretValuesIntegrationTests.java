package dev.kubereconciler.dependent;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import com.google.gson.Gson;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.metrics.ControllerMetrics;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Secret dependent whose write the real API server refuses: its values, plain or
 * base64, appear in no log line (at DEBUG, stack traces included), no Event, no metric
 * and not in the primary's {@code Ready} condition, which anyone who may read the primary
 * reads, while each of them does say that the Secret's apply failed.
 */
@KubernetesTest(crds = "dev/kubereconciler/dependent/stacks.yaml")
class SecretValuesIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String TOKEN = "hunter2-token-5f1c9e";

	private static final String KEY = "hunter2-key-a83d07";

	// base64 ends in '=', which Gson writes as \u003d unless told not to
	private static final Gson UNESCAPED = JSON.getGson().newBuilder().disableHtmlEscaping().create();

	private static final List<String> LOGGERS = List.of("dev.kubereconciler", WorkQueueController.class.getName());

	ApiClient client;

	TestNamespace namespace;

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final List<Level> levels = new ArrayList<>();

	private ControllerManager manager;

	@BeforeEach
	void captureLogs() {
		for (String name : LOGGERS) {
			Logger logger = (Logger) LoggerFactory.getLogger(name);
			this.levels.add(logger.getLevel());
			logger.setLevel(Level.DEBUG);
		}
		this.logs.start();
		((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(this.logs);
	}

	@AfterEach
	void restoreLogs() {
		if (this.manager != null) {
			this.manager.stop();
		}
		((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(this.logs);
		for (int i = 0; i < LOGGERS.size(); i++) {
			((Logger) LoggerFactory.getLogger(LOGGERS.get(i))).setLevel(this.levels.get(i));
		}
	}

	@Test
	void aRefusedSecretWriteShowsNoneOfItsValues() throws ApiException {
		String ns = this.namespace.name();
		AtomicReference<ControllerManager> started = new AtomicReference<>();
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ControllerMetrics metrics = new ControllerMetrics((name) -> started.get().controller(name), () -> null);
		metrics.bindTo(registry);
		this.manager = ControllerManager.builder(this.client)
			.listener(metrics)
			.controller(ControllerDefinition.builder(Stack.class)
				.named("vaults")
				.namespaces(ns)
				.dependent("vault", V1Secret.class, (stack, context) -> new V1Secret()
					// a label value that the API server refuses, sent with the
					// values
					.metadata(new V1ObjectMeta().name("vault").putLabelsItem("tier", "not a label value"))
					.stringData(Map.of("token", TOKEN))
					.putDataItem("key", KEY.getBytes(StandardCharsets.UTF_8)))
				.readyCondition(true)
				.reconcile((stack, context) -> Result.done()))
			.build();
		started.set(this.manager);
		this.manager.start();
		Stack stack = new Stack();
		stack.getMetadata().name("app").namespace(ns);
		stack.setSpec(new Stack.Spec("nginx:1.27", "hello", 0, false));
		stacks().create(stack).throwsApiException();
		String failure = "apply of Secret " + ns + "/vault (dependent 'vault') failed: 422 Invalid: ";
		String condition = "vault: apply of Secret " + ns + "/vault failed: 422 Invalid: ";
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(logLines().stream().filter((line) -> line.contains(failure)).count() >= 3
					&& readyMessage().contains(condition))
				.as("logs %s, status %s", logLines(), readyMessage())
				.isTrue());
		List<String> shown = new ArrayList<>(logLines());
		shown.add(readyMessage());
		shown.add(UNESCAPED.toJson(new CoreV1Api(this.client).listNamespacedEvent(ns).execute()));
		shown.add(UNESCAPED.toJson(new EventsV1Api(this.client).listNamespacedEvent(ns).execute()));
		shown.add(registry.scrape());
		assertThat(registry.scrape()).contains("controller_runtime_reconcile_errors_total{controller=\"vaults\"}");
		for (String value : List.of(TOKEN, KEY)) {
			String base64 = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
			assertThat(shown).noneSatisfy((text) -> assertThat(text).contains(value))
				.noneSatisfy((text) -> assertThat(text).contains(base64));
		}
	}

	private List<String> logLines() {
		return List.copyOf(this.logs.list)
			.stream()
			.map((event) -> event.getFormattedMessage() + ((event.getThrowableProxy() != null)
					? "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy()) : ""))
			.toList();
	}

	private String readyMessage() throws ApiException {
		Stack stack = stacks().get(this.namespace.name(), "app").throwsApiException().getObject();
		return (stack.getStatus() != null && stack.getStatus().conditions() != null) ? stack.getStatus()
			.conditions()
			.stream()
			.map((ready) -> ready.getType() + " " + ready.getReason() + " " + ready.getMessage())
			.toList()
			.toString() : "";
	}

	private io.kubernetes.client.util.generic.GenericKubernetesApi<Stack, CustomResourceList<Stack>> stacks() {
		return CustomResourceList.api(Stack.class, this.client);
	}

}
