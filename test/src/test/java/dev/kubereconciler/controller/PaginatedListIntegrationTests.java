package dev.kubereconciler.controller;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.cache.ScopedListerWatcher;
import dev.kubereconciler.test.ApiRequest;
import dev.kubereconciler.test.ApiRequestRecorder;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The informers' list comes in pages, as client-go's reflector pages it, so that no
 * request carries the JSON of every object at once.
 */
@KubernetesTest
class PaginatedListIntegrationTests {

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	@Test
	void theListComesInPagesFromOneSnapshotAndHoldsEveryObject() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		for (int i = 0; i < 12; i++) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("page-" + i).labels(Map.of("paged", "yes"))))
				.execute();
		}
		ApiRequestRecorder.Recorded recorded = ApiRequestRecorder.record(this.server.apiClient());
		GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> api = new GenericKubernetesApi<>(V1ConfigMap.class,
				V1ConfigMapList.class, "", "v1", "configmaps", recorded.client());
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = new ScopedListerWatcher<>(api, this.namespace.name(),
				"paged=yes", 5);
		// the reflector's first list asks for resourceVersion 0
		V1ConfigMapList list = lister.list(new CallGeneratorParams(false, "0", null));
		assertThat(list.getItems()).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrderElementsOf(
					java.util.stream.IntStream.range(0, 12).mapToObj((i) -> "page-" + i).toList());
		assertThat(list.getMetadata().getContinue()).isNull();
		assertThat(list.getMetadata().getResourceVersion()).isNotEmpty();
		List<ApiRequest> lists = recorded.recorder()
			.allRequests()
			.stream()
			.filter((request) -> request.verb().equals("list"))
			.toList();
		assertThat(lists).hasSize(3);
	}

}
