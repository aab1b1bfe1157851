package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.Map;

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
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.test.assertions.ReconcileRecorder;

import static dev.kubereconciler.test.assertions.KubernetesAssertions.assertThat;

/**
 * The auto-configured manager of a {@code @KubernetesTest} Spring Boot test listens with
 * the {@link ReconcileRecorder} bean that kube-reconciler-test adds, so the test can
 * count the reconciles of an annotated method. Neither the recorder nor the API server is
 * imported: @KubernetesTest brings both.
 */
@KubernetesTest
@SpringBootTest(classes = ReconcileRecorderIntegrationTests.Application.class)
class ReconcileRecorderIntegrationTests {

	@Autowired
	private ReconcileRecorder recorder;

	ApiClient client;

	TestNamespace namespace;

	@Test
	void annotatedReconcilerIsRecordedWithoutAnyWiring() throws ApiException {
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("counted").labels(Map.of("test", "recorded"))))
			.execute();
		Request counted = new Request(this.namespace.name(), "counted");
		assertThat(this.recorder, "recorded", counted).eventually().hasReconciled(1);
		assertThat(this.recorder, "recorded", counted).isQuietFor(Duration.ofMillis(500));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class,
			KubeReconcilerDefinitionsAutoConfiguration.class })
	static class Application {

		@Bean
		Recorded recorded() {
			return new Recorded();
		}

	}

	static class Recorded {

		@Reconciler(name = "recorded", watches = V1ConfigMap.class, labelSelector = "test=recorded")
		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
