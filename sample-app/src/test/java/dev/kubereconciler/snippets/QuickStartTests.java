package dev.kubereconciler.snippets;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestConfiguration;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the README's quick start, {@link ConfigMapAuditor}, against the test API server,
 * so that it does what the README says it does.
 */
@KubernetesTest
class QuickStartTests {

	private ApiClient client;

	private TestNamespace namespace;

	@Test
	void auditsConfigMapsRequeuingThoseWithAnOwnerAndGivingUpOnTheOthers() throws ApiException {
		List<String> outcomes = new CopyOnWriteArrayList<>();
		ControllerListener recorder = new ControllerListener() {

			@Override
			public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
					Throwable error) {
				outcomes.add(request.name() + "=" + outcome);
			}

		};
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
					KubeReconcilerDefinitionsAutoConfiguration.class))
			.withUserConfiguration(KubernetesTestConfiguration.class)
			.withBean(ConfigMapAuditor.class)
			.withBean(ControllerListener.class, () -> recorder)
			.withPropertyValues("kube-reconciler.controllers.configmap-auditor.namespaces=" + this.namespace)
			.run((context) -> {
				CoreV1Api core = new CoreV1Api(this.client);
				core.createNamespacedConfigMap(this.namespace.name(), configMap("owned", Map.of("owner", "team-a")))
					.execute();
				core.createNamespacedConfigMap(this.namespace.name(), configMap("orphan", Map.of("k", "v"))).execute();
				await().untilAsserted(() -> assertThat(outcomes).contains("owned=" + ReconcileOutcome.REQUEUE_AFTER,
						"orphan=" + ReconcileOutcome.TERMINAL_ERROR));
				core.deleteNamespacedConfigMap("owned", this.namespace.name()).execute();
				await().untilAsserted(() -> assertThat(outcomes).contains("owned=" + ReconcileOutcome.SUCCESS));
				assertThat(outcomes).doesNotContain("orphan=" + ReconcileOutcome.ERROR);
			});
	}

	private static V1ConfigMap configMap(String name, Map<String, String> data) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).putLabelsItem("audit", "true")).data(data);
	}

}
