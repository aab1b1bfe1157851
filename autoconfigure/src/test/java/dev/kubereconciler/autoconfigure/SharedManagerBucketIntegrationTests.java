package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two annotated controllers share the manager bucket configured in YAML: their combined
 * admissions against the real test API server follow burst + qps·t.
 */
@KubernetesTest
@SpringBootTest(classes = SharedManagerBucketIntegrationTests.Application.class,
		properties = { "kube-reconciler.manager.rate-limiter.qps=10", "kube-reconciler.manager.rate-limiter.burst=5",
				"kube-reconciler.defaults.max-concurrent-reconciles=2", "kube-reconciler.shutdown-timeout=5s" })
class SharedManagerBucketIntegrationTests {

	private static final int EACH = 15;

	@Autowired
	private ManagedControllers controllers;

	@Autowired
	private Recorder recorder;

	ApiClient client;

	TestNamespace namespace;

	@Test
	void combinedAdmissionsOfTwoControllersFollowTheManagerBucket() throws ApiException {
		ManagerGate gate = this.controllers.getManager().gate();
		assertThat(gate.bucket().qps()).isEqualTo(10.0);
		assertThat(gate.bucket().burst()).isEqualTo(5);
		// the informers' initial lists pass the gate too: start from a settled,
		// refilled bucket
		await().atMost(Duration.ofSeconds(10)).until(() -> gate.bucket().tokens() == 5.0);
		this.recorder.admissions.clear();
		CoreV1Api core = new CoreV1Api(this.client);
		for (int i = 0; i < EACH; i++) {
			core.createNamespacedConfigMap(this.namespace.name(), new V1ConfigMap().metadata(metadata("config-" + i)))
				.execute();
			core.createNamespacedSecret(this.namespace.name(), new V1Secret().metadata(metadata("secret-" + i)))
				.execute();
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> this.recorder.admissions.size() == 2 * EACH);
		List<Admission> admissions = new ArrayList<>(this.recorder.admissions);
		assertThat(admissions).extracting(Admission::controller).contains("configs", "secrets");
		long start = admissions.get(0).nanos();
		for (int k = 0; k < admissions.size(); k++) {
			double seconds = (admissions.get(k).nanos() - start) / 1e9;
			// the k-th admission (from 0) needs k + 1 tokens: at most burst + qps·t
			// are available
			assertThat(k + 1).as("admission %d at %.3f s", k + 1, seconds)
				.isLessThanOrEqualTo((int) Math.floor(5 + 10 * seconds + 1e-6) + 1);
		}
		double span = (admissions.get(admissions.size() - 1).nanos() - start) / 1e9;
		// 30 admissions need 25 refilled tokens: 2.5 s at 10 qps, with some slack for
		// the server
		assertThat(span).isBetween(2.4, 6.0);
	}

	private V1ObjectMeta metadata(String name) {
		return new V1ObjectMeta().name(name).labels(Map.of("test", "shared-bucket"));
	}

	record Admission(String controller, long nanos) {
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerRbacAutoConfiguration.class })
	static class Application {

		@Bean
		Recorder recorder() {
			return new Recorder();
		}

	}

	static class Recorder {

		final List<Admission> admissions = new CopyOnWriteArrayList<>();

		@Reconciler(name = "configs", watches = V1ConfigMap.class, labelSelector = "test=shared-bucket")
		void configs(Request request) {
			this.admissions.add(new Admission("configs", System.nanoTime()));
		}

		@Reconciler(name = "secrets", watches = V1Secret.class, labelSelector = "test=shared-bucket")
		void secrets(Request request) {
			this.admissions.add(new Admission("secrets", System.nanoTime()));
		}

	}

}
