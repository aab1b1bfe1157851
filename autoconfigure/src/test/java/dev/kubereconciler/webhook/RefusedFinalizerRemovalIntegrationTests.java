package dev.kubereconciler.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.webhook.KubeReconcilerWebhookAutoConfiguration;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestConfiguration;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.webhook.admission.AdmissionRequest;
import dev.kubereconciler.webhook.admission.AdmissionResult;
import dev.kubereconciler.webhook.admission.AdmissionValidator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's own validating webhook refuses the framework's finalizer removal, as
 * in the report of issue 35: each retry logs the webhook's reason, that it was the
 * finalizer removal and of which object, and the removal goes through once the webhook
 * allows it.
 */
@KubernetesTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RefusedFinalizerRemovalIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String FINALIZER = "example.com/held";

	ApiClient client;

	TestNamespace namespace;

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private Level level;

	private ConfigurableApplicationContext context;

	@BeforeAll
	void start() throws ApiException {
		String ns = this.namespace.name();
		// the API server chooses the namespaces it calls a webhook for by label
		new DynamicKubernetesApi("", "v1", "namespaces", this.client)
			.patch(ns, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"metadata\":{\"labels\":{\"webhooks-test\":\"" + ns + "\"}}}"))
			.throwsApiException();
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=refused-finalizer-test", "kube-reconciler.webhooks.port=0",
					"kube-reconciler.webhooks.register=true",
					"kube-reconciler.webhooks.namespace-selector.webhooks-test=" + ns,
					"kube-reconciler.controllers.held.namespaces=" + ns, "kube-reconciler.shutdown-timeout=5s")
			.run();
		// after the start, which configures logging afresh
		Logger logger = (Logger) LoggerFactory.getLogger(WorkQueueController.class);
		this.level = logger.getLevel();
		logger.setLevel(Level.WARN);
		this.logs.start();
		logger.addAppender(this.logs);
	}

	@AfterAll
	void stop() {
		Logger logger = (Logger) LoggerFactory.getLogger(WorkQueueController.class);
		logger.detachAppender(this.logs);
		logger.setLevel(this.level);
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void eachRetryOfARefusedFinalizerRemovalSaysWhatTheWebhookSaidAndWhichWriteItWas() throws ApiException {
		String ns = this.namespace.name();
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespacedConfigMap(ns,
				new V1ConfigMap().metadata(new V1ObjectMeta().name("b").labels(Map.of("test", "held")))
					.data(Map.of("locked", "true")))
			.execute();
		await().atMost(TIMEOUT)
			.until(() -> core.readNamespacedConfigMap("b", ns).execute().getMetadata().getFinalizers(),
					(finalizers) -> finalizers != null && finalizers.contains(FINALIZER));
		core.deleteNamespacedConfigMap("b", ns).execute();
		String prefix = "Reconcile of " + ns + "/b ";
		await().atMost(TIMEOUT).until(() -> retries(prefix).size() >= 3);
		assertThat(retries(prefix)).allSatisfy((event) -> assertThat(event.getFormattedMessage())
			.contains("finalizer removal of ConfigMap " + ns + "/b failed: 403 ")
			.contains("denied the request: the held finalizer stays while the ConfigMap is locked")
			.doesNotContain("HTTP response body"));
		// unlocked, an update that keeps the finalizer, the next retry removes it
		new DynamicKubernetesApi("", "v1", "configmaps", this.client)
			.patch(ns, "b", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch("{\"data\":{\"locked\":\"false\"}}"))
			.throwsApiException();
		await().atMost(TIMEOUT).until(() -> !exists(core, "b"));
	}

	private List<ILoggingEvent> retries(String prefix) {
		return List.copyOf(this.logs.list)
			.stream()
			.filter((event) -> event.getFormattedMessage().startsWith(prefix))
			.toList();
	}

	private boolean exists(CoreV1Api core, String name) throws ApiException {
		try {
			core.readNamespacedConfigMap(name, this.namespace.name()).execute();
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw ex;
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerWebhookAutoConfiguration.class })
	@Import(KubernetesTestConfiguration.class)
	static class Application {

		@Bean
		AdmissionValidator<V1ConfigMap> lockValidator() {
			return new LockValidator();
		}

		@Bean
		Held held() {
			return new Held();
		}

	}

	/**
	 * A validator that judges the whole object on update, as the user wrote it.
	 */
	static final class LockValidator implements AdmissionValidator<V1ConfigMap> {

		@Override
		public AdmissionResult validateUpdate(V1ConfigMap oldObject, V1ConfigMap newObject, AdmissionRequest request) {
			boolean locked = newObject.getData() != null && "true".equals(newObject.getData().get("locked"));
			boolean removed = holds(oldObject) && !holds(newObject);
			return (locked && removed)
					? AdmissionResult.denied("the held finalizer stays while the ConfigMap is locked")
					: AdmissionResult.allowed();
		}

		private static boolean holds(V1ConfigMap configMap) {
			List<String> finalizers = configMap.getMetadata().getFinalizers();
			return finalizers != null && finalizers.contains(FINALIZER);
		}

	}

	static class Held implements Cleaner<V1ConfigMap> {

		@Reconciler(name = "held", watches = V1ConfigMap.class, labelSelector = "test=held", finalizer = FINALIZER)
		void reconcile(V1ConfigMap configMap) {
		}

		@Override
		public Result cleanup(V1ConfigMap configMap, ReconcileContext<V1ConfigMap> context) {
			return Result.done();
		}

	}

}
