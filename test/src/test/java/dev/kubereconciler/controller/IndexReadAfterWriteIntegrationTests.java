package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.cache.ScopedListerWatcher;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code ReconcileContext.listByIndex} after the context's own write, against the real
 * test API server, while the watch events are held back: the written object is found by
 * its new value and no longer by its old one before the informer catches up.
 */
@KubernetesTest
class IndexReadAfterWriteIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	private ControllerManager manager;

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void indexLookupFindsTheContextsOwnWriteByItsNewValueBeforeTheInformerCatchesUp() throws ApiException {
		String ns = this.namespace.name();
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespacedConfigMap(ns, configMap("stays", "s1")).execute();
		core.createNamespacedConfigMap(ns, configMap("moved", "s2")).execute();
		GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> api = new GenericKubernetesApi<>(V1ConfigMap.class,
				V1ConfigMapList.class, "", "v1", "configmaps", this.client);
		HeldWatch<V1ConfigMap, V1ConfigMapList> watch = new HeldWatch<>(new ScopedListerWatcher<>(api, ns, null));
		SharedInformerFactory factory = new SharedInformerFactory(this.client);
		factory.sharedIndexInformerFor(watch, V1ConfigMap.class, 0);
		List<List<String>> afterWrite = new CopyOnWriteArrayList<>();
		this.manager = ControllerManager.builder(this.client)
			.informerFactory(factory)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("index-after-write")
				.namespaces(ns)
				.index(V1ConfigMap.class, "secret", (configMap) -> List.of(configMap.getData().get("secret")))
				.reconcile((configMap, context) -> {
					if (!configMap.getMetadata().getName().equals("moved")
							|| !"s2".equals(configMap.getData().get("secret"))) {
						return Result.done();
					}
					watch.hold();
					try {
						context.patch(configMap, "{\"data\":{\"secret\":\"s1\"}}");
						afterWrite.add(names(context.listByIndex(V1ConfigMap.class, "secret", "s1")));
						afterWrite.add(names(context.listByIndex(V1ConfigMap.class, "secret", "s2")));
					}
					finally {
						watch.release();
					}
					return Result.done();
				}))
			.build();
		this.manager.start();
		await().atMost(TIMEOUT).until(() -> afterWrite.size() == 2);
		assertThat(afterWrite.get(0)).containsExactly("moved", "stays");
		assertThat(afterWrite.get(1)).isEmpty();
	}

	private static List<String> names(List<V1ConfigMap> configMaps) {
		return configMaps.stream().map((configMap) -> configMap.getMetadata().getName()).sorted().toList();
	}

	private static V1ConfigMap configMap(String name, String secret) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("secret", secret));
	}

}
