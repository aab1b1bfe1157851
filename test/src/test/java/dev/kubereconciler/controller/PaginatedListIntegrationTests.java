package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.cache.ScopedListerWatcher;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.rbac.ApiRequest;
import dev.kubereconciler.test.rbac.ApiRequestRecorder;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The informers' list comes in pages, as client-go's reflector pages it, so that no
 * request carries the JSON of every object at once.
 */
@KubernetesTest
class PaginatedListIntegrationTests {

	private static final List<String> NAMES = IntStream.range(0, 12).mapToObj((i) -> "page-" + i).toList();

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	@BeforeEach
	void createConfigMaps() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		for (String name : NAMES) {
			try {
				core.createNamespacedConfigMap(this.namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("paged", "yes"))))
					.execute();
			}
			catch (ApiException ex) {
				// the namespace is the class's: an earlier test created them
				if (ex.getCode() != 409) {
					throw ex;
				}
			}
		}
	}

	@Test
	void theListComesInPagesFromOneSnapshotAndHoldsEveryObject() throws Exception {
		ApiRequestRecorder.Recorded recorded = ApiRequestRecorder.record(this.server.apiClient());
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = new ScopedListerWatcher<>(api(recorded.client()),
				this.namespace.name(), "paged=yes", 5);
		// the reflector's first list asks for resourceVersion 0
		V1ConfigMapList list = lister.list(new CallGeneratorParams(false, "0", null));
		assertThat(list.getItems()).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrderElementsOf(NAMES);
		assertThat(list.getMetadata().getContinue()).isNull();
		assertThat(list.getMetadata().getResourceVersion()).isNotEmpty();
		List<ApiRequest> lists = recorded.recorder()
			.allRequests()
			.stream()
			.filter((request) -> request.verb().equals("list"))
			.toList();
		assertThat(lists).hasSize(3);
	}

	@Test
	void eachPageIsTransformedBeforeTheNextIsRequested() throws Exception {
		List<String> transformed = new CopyOnWriteArrayList<>();
		List<Integer> transformedBeforeEachList = new CopyOnWriteArrayList<>();
		ApiClient client = this.server.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			if (chain.request().url().encodedPath().endsWith("/configmaps")) {
				transformedBeforeEachList.add(transformed.size());
			}
			return chain.proceed(chain.request());
		}).build());
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = new ScopedListerWatcher<>(api(client),
				this.namespace.name(), "paged=yes", 5, (object) -> {
					transformed.add(object.getMetadata().getName());
					return ((V1ConfigMap) object).putDataItem("transformed", "yes");
				});
		V1ConfigMapList list = lister.list(new CallGeneratorParams(false, "0", null));
		assertThat(transformedBeforeEachList).containsExactly(0, 5, 10);
		assertThat(transformed).containsExactlyInAnyOrderElementsOf(NAMES);
		assertThat(list.getItems()).hasSize(NAMES.size())
			.allSatisfy((configMap) -> assertThat(configMap.getData()).containsEntry("transformed", "yes"));
	}

	@Test
	void aPageSizeOfZeroListsEverythingInOneRequestAtTheVersionAsked() throws Exception {
		List<HttpUrl> lists = new CopyOnWriteArrayList<>();
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = new ScopedListerWatcher<>(api(recordingLists(lists)),
				this.namespace.name(), "paged=yes", 0);
		V1ConfigMapList list = lister.list(new CallGeneratorParams(false, "0", null));
		assertThat(list.getItems()).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrderElementsOf(NAMES);
		assertThat(lists).singleElement().satisfies((url) -> {
			assertThat(url.queryParameter("limit")).isNull();
			// the watch cache answers any version at once, as client-java's reflector
			// asks
			assertThat(url.queryParameter("resourceVersion")).isEqualTo("0");
		});
	}

	@Test
	void aNegativePageSizeIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ScopedListerWatcher<>(api(this.client), this.namespace.name(), null, -1))
			.withMessageContaining("pageSize");
		assertThatIllegalArgumentException().isThrownBy(() -> ControllerManager.builder(this.client).listPageSize(-1))
			.withMessageContaining("listPageSize");
	}

	@Test
	void theManagersInformersListInPagesOfItsListPageSize() throws Exception {
		assertThat(listsOfAManager(5)).hasSize(3)
			.allSatisfy((url) -> assertThat(url.queryParameter("limit")).isEqualTo("5"));
		assertThat(listsOfAManager(0)).singleElement()
			.satisfies((url) -> assertThat(url.queryParameter("limit")).isNull());
		assertThat(listsOfAManager(ControllerManager.DEFAULT_LIST_PAGE_SIZE)).singleElement()
			.satisfies((url) -> assertThat(url.queryParameter("limit")).isEqualTo("500"));
	}

	private List<HttpUrl> listsOfAManager(int pageSize) throws Exception {
		List<HttpUrl> lists = new CopyOnWriteArrayList<>();
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("paged-" + pageSize)
			.namespaces(this.namespace.name())
			.reconcile((request) -> Result.done());
		ControllerManager manager = ControllerManager.builder(recordingLists(lists))
			.controller(definition)
			.listPageSize(pageSize)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		assertThat(manager.listPageSize()).isEqualTo(pageSize);
		manager.start();
		try {
			assertThat(manager.lister(V1ConfigMap.class).namespace(this.namespace.name()).list())
				.extracting((configMap) -> configMap.getMetadata().getName())
				.containsExactlyInAnyOrderElementsOf(NAMES);
		}
		finally {
			manager.stop();
		}
		return lists;
	}

	/**
	 * A client of the test server that records the URL of every list of ConfigMaps (not
	 * the watches).
	 */
	private ApiClient recordingLists(List<HttpUrl> lists) {
		ApiClient client = this.server.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			HttpUrl url = chain.request().url();
			if (url.encodedPath().endsWith("/configmaps") && !"true".equals(url.queryParameter("watch"))) {
				lists.add(url);
			}
			return chain.proceed(chain.request());
		}).build());
		return client;
	}

	private static GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> api(ApiClient client) {
		return new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client);
	}

}
