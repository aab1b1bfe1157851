package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

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
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbac;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A reconciler bean that implements {@link Cleaner} and names no finalizer gets one, as
 * Java Operator SDK's reconcilers do: its objects are held until the cleanup ran, and the
 * derived RBAC grants the finalizer's writes (which the RBAC proof checks after the
 * class).
 */
@KubernetesTest
@SpringBootTest(classes = ImpliedFinalizerIntegrationTests.Application.class,
		properties = "kube-reconciler.shutdown-timeout=5s")
class ImpliedFinalizerIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final String FINALIZER = "kubereconciler.dev/cleaning-finalizer";

	@Autowired
	private ManagedControllers controllers;

	@Autowired
	private Cleaning cleaning;

	@Autowired
	private KubeReconcilerRbac rbac;

	ApiClient client;

	TestNamespace namespace;

	@Test
	void cleanerBeanWithoutAFinalizerNameGetsTheImpliedFinalizer() throws ApiException {
		assertThat(this.controllers.getManager().controller("cleaning").definition().reconciler().finalizer())
			.isEqualTo(FINALIZER);
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespacedConfigMap(this.namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("held").labels(Map.of("test", "cleaning"))))
			.execute();
		await().atMost(TIMEOUT)
			.until(() -> core.readNamespacedConfigMap("held", this.namespace.name()).execute().getMetadata(),
					(metadata) -> metadata.getFinalizers() != null && metadata.getFinalizers().contains(FINALIZER));
		core.deleteNamespacedConfigMap("held", this.namespace.name()).execute();
		await().atMost(TIMEOUT).until(() -> this.cleaning.cleaned.contains("held"));
		await().atMost(TIMEOUT).until(() -> !exists(core, "held"));
	}

	@Test
	void derivedRbacGrantsTheImpliedFinalizersWrites() {
		List<PolicyRule> rules = this.rbac.policy().roles().stream().flatMap((role) -> role.rules().stream()).toList();
		assertThat(rules).anySatisfy((rule) -> {
			assertThat(rule.resources()).contains("configmaps/finalizers");
			assertThat(rule.verbs()).contains("update");
		});
		assertThat(rules).anySatisfy((rule) -> {
			assertThat(rule.resources()).contains("configmaps");
			assertThat(rule.verbs()).contains("patch");
		});
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
			KubeReconcilerRbacAutoConfiguration.class })
	static class Application {

		@Bean
		Cleaning cleaning() {
			return new Cleaning();
		}

	}

	/**
	 * A reconciler declared as the docs show it, with a cleanup and no finalizer name.
	 */
	static class Cleaning implements Cleaner<V1ConfigMap> {

		final List<String> cleaned = new CopyOnWriteArrayList<>();

		@Reconciler(name = "cleaning", watches = V1ConfigMap.class, labelSelector = "test=cleaning")
		void reconcile(V1ConfigMap configMap) {
		}

		@Override
		public Result cleanup(V1ConfigMap configMap, ReconcileContext<V1ConfigMap> context) {
			this.cleaned.add(configMap.getMetadata().getName());
			return Result.done();
		}

	}

}
