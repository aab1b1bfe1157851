package dev.kubereconciler.test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A client-java informer against the real test API server: the harness's client must be
 * fit for long-running watches, not just for single requests.
 */
@KubernetesTest
class KubernetesTestInformerTests {

	@Test
	void informerInTheTestNamespaceSeesAddUpdateAndDelete(ApiClient client, TestNamespace namespace)
			throws ApiException {
		CoreV1Api core = new CoreV1Api(client);
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(
				new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client),
				V1ConfigMap.class, 0, namespace.name());
		List<String> events = new CopyOnWriteArrayList<>();
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap configMap) {
				events.add("ADD " + describe(configMap));
			}

			@Override
			public void onUpdate(V1ConfigMap old, V1ConfigMap configMap) {
				events.add("UPDATE " + describe(configMap));
			}

			@Override
			public void onDelete(V1ConfigMap configMap, boolean finalStateUnknown) {
				events.add("DELETE " + describe(configMap));
			}

		});
		factory.startAllRegisteredInformers();
		try {
			await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
			V1ConfigMap created = core
				.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("settings")).data(Map.of("color", "red")))
				.execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("ADD settings color=red"));
			core.replaceNamespacedConfigMap("settings", namespace.name(), created.data(Map.of("color", "blue")))
				.execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("UPDATE settings color=blue"));
			core.deleteNamespacedConfigMap("settings", namespace.name()).execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("DELETE settings color=blue"));
			assertThat(events).containsExactly("ADD settings color=red", "UPDATE settings color=blue",
					"DELETE settings color=blue");
			assertThat(informer.getIndexer().list()).isEmpty();
		}
		finally {
			factory.stopAllRegisteredInformers();
		}
	}

	private static String describe(V1ConfigMap configMap) {
		return configMap.getMetadata().getName() + " color=" + configMap.getData().get("color");
	}

}
