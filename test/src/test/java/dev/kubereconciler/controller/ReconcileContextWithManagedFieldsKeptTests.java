package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.kubereconciler.cache.CacheTransforms;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ManagerBuilder;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a reconciler's context gives an application that starts client-java with
 * {@code -Dkubernetes.client.includeManagedFields=true}: the caller of a write gets the
 * server's whole answer, while what it reads back has the informer's shape. Runs in the
 * test module's JVM that has the property (see its pom); without it client-java decodes
 * no {@code managedFields} at all.
 */
@KubernetesTest
@Tag("managed-fields-kept")
class ReconcileContextWithManagedFieldsKeptTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@RegisterExtension
	final StartedManagers managers = new StartedManagers();

	ApiClient client;

	TestNamespace namespace;

	@BeforeAll
	static void runsWithManagedFieldsKept() {
		assertThat(Boolean.getBoolean("kubernetes.client.includeManagedFields"))
			.as("runs in the surefire execution 'with-managed-fields-kept' of the test module")
			.isTrue();
	}

	@Test
	void aWrittenVersionIsReadInTheInformersShapeWhileTheCallerGetsTheWholeAnswer() throws Exception {
		// the informer's transform holds back every version that carries the write, so
		// that the read below finds the view's written copy, not the informer's
		CountDownLatch informerHeld = new CountDownLatch(1);
		List<Boolean> answerHadManagedFields = new CopyOnWriteArrayList<>();
		List<Optional<V1ConfigMap>> readBack = new CopyOnWriteArrayList<>();
		ManagerBuilder builder = ControllerManager.builder(this.client)
			.cacheTransforms(CacheTransforms.defaults().transform(V1ConfigMap.class, (configMap) -> {
				if (configMap.getData() != null && configMap.getData().containsKey("written")) {
					awaitQuietly(informerHeld);
				}
				return configMap;
			}))
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("shapes")
				.namespaces(this.namespace.name())
				.labelSelector("context-test=shapes")
				.reconcile((configMap, context) -> {
					if (!readBack.isEmpty()) {
						return Result.done();
					}
					configMap.getData().put("written", "yes");
					V1ConfigMap answer = context.update(configMap);
					answerHadManagedFields.add(answer.getMetadata().getManagedFields() != null);
					readBack.add(context.get(V1ConfigMap.class, this.namespace.name(), "shaped"));
					return Result.done();
				}));
		ControllerManager manager = this.managers.start(builder);
		try {
			core().createNamespacedConfigMap(this.namespace.name(), configMap("shaped", "shapes")).execute();
			await().atMost(TIMEOUT).until(() -> readBack.size() == 1);
		}
		finally {
			informerHeld.countDown();
		}
		assertThat(answerHadManagedFields).containsExactly(true);
		V1ConfigMap written = readBack.get(0).orElseThrow();
		assertThat(written.getData()).containsEntry("written", "yes");
		// the informer caches no managed fields, so neither does the written copy: the
		// same version reads the same from either
		assertThat(written.getMetadata().getManagedFields()).isNull();
		await().atMost(TIMEOUT)
			.untilAsserted(
					() -> assertThat(manager.lister(V1ConfigMap.class).namespace(this.namespace.name()).get("shaped"))
						.isEqualTo(written));
		assertThat(this.managers.errors()).isEmpty();
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private CoreV1Api core() {
		return new CoreV1Api(this.client);
	}

	private static V1ConfigMap configMap(String name, String test) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("context-test", test)))
			.data(Map.of("key", "value"));
	}

}
