package dev.kubereconciler.test;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;

/**
 * {@code @KubernetesTest(garbageCollection = false)}: the class's namespace is left
 * alone, as on an API server with no controller manager, even while the shared server's
 * collector runs for other classes.
 */
@KubernetesTest(garbageCollection = false)
class KubernetesTestGarbageCollectionOffTests {

	@Test
	void aDependentOfADeletedOwnerStays(ApiClient client, TestNamespace namespace, KubernetesTestServer server)
			throws ApiException {
		// as when a class that wants the collector runs before or beside this one
		SharedGarbageCollector.apply(server, new TestNamespace("default"), true);
		CoreV1Api core = new CoreV1Api(client);
		V1ConfigMap owner = core
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("owner")))
			.execute();
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("dependent")
					.addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1")
						.kind("ConfigMap")
						.name("owner")
						.uid(owner.getMetadata().getUid()))))
			.execute();

		core.deleteNamespacedConfigMap("owner", namespace.name()).execute();

		await().during(Duration.ofSeconds(1))
			.atMost(Duration.ofSeconds(3))
			.until(() -> core.readNamespacedConfigMap("dependent", namespace.name()).execute() != null);
	}

}
