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
import io.kubernetes.client.informer.TransformFunc;
import okhttp3.HttpUrl;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.cache.ResourceType;
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
import static org.awaitility.Awaitility.await;

/**
 * The informers' list is read whole from the watch cache when it is small, and in pages,
 * as client-go's reflector pages it, when it is large, so that no request carries the
 * JSON of every object at once.
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
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = lister(recorded.client(), 5, 0, null);
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
	void eachPageIsRequestedBeforeThePreviousOneIsDecoded() throws Exception {
		List<HttpUrl> lists = new CopyOnWriteArrayList<>();
		List<String> transformed = new CopyOnWriteArrayList<>();
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = lister(recordingLists(lists), 5, 0, (object) -> {
			int page = transformed.size() / 5;
			// the next page is on its way while this one is decoded: waiting for its
			// request here would wait forever if the pages were read one after another
			await().atMost(Duration.ofSeconds(10)).until(() -> lists.size() >= Math.min(page + 2, 3));
			transformed.add(object.getMetadata().getName());
			return ((V1ConfigMap) object).putDataItem("transformed", "yes");
		});
		V1ConfigMapList list = lister.list(new CallGeneratorParams(false, "0", null));
		assertThat(lists).hasSize(3);
		assertThat(transformed).containsExactlyInAnyOrderElementsOf(NAMES);
		assertThat(list.getItems()).hasSize(NAMES.size())
			.allSatisfy((configMap) -> assertThat(configMap.getData()).containsEntry("transformed", "yes"));
	}

	@Test
	void aSmallListIsReadWholeFromTheWatchCacheInOneRequest() throws Exception {
		List<HttpUrl> lists = new CopyOnWriteArrayList<>();
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = lister(recordingLists(lists), 5,
				ScopedListerWatcher.DEFAULT_WATCH_CACHE_LIST_MAX, null);
		V1ConfigMapList list = lister.list(new CallGeneratorParams(false, "0", null));
		assertThat(list.getItems()).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrderElementsOf(NAMES);
		assertThat(lists).hasSize(1);
		HttpUrl whole = lists.get(0);
		assertThat(whole.queryParameter("limit")).isNull();
		assertThat(whole.queryParameter("labelSelector")).isEqualTo("paged=yes");
		// any version, as client-go's first list: the watch cache answers at once, where
		// it waits up to 3 s for a version it has not seen (the first request's)
		assertThat(whole.queryParameter("resourceVersion")).isEqualTo("0");
		assertThat(whole.queryParameter("resourceVersionMatch")).isNull();
		assertThat(list.getMetadata().getResourceVersion()).isNotEmpty();
	}

	@Test
	void aListLargerThanTheWatchCacheListMaxIsGivenUpAndReadInPages() throws Exception {
		List<HttpUrl> lists = new CopyOnWriteArrayList<>();
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = new ScopedListerWatcher<>(recordingLists(lists),
				ResourceType.of(V1ConfigMap.class), this.namespace.name(), null, 5, NAMES.size() - 1, null);
		V1ConfigMapList list = lister.list(new CallGeneratorParams(false, "0", null));
		assertThat(list.getItems()).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrderElementsOf(NAMES);
		assertThat(list.getMetadata().getContinue()).isNull();
		// the watch cache's whole answer, given up at the 12th object, then all 12 from
		// one snapshot of the newest version in pages of 5
		assertThat(lists).extracting((url) -> url.queryParameter("limit")).containsExactly(null, "5", "5", "5");
		assertThat(lists).extracting((url) -> url.queryParameter("resourceVersion"))
			.containsExactly("0", null, null, null);
		assertThat(lists.subList(2, 4)).allSatisfy((url) -> assertThat(url.queryParameter("continue")).isNotEmpty());
	}

	@Test
	void aSelectedListLargerThanTheWatchCacheListMaxComesInSelectedPages() throws Exception {
		List<HttpUrl> lists = new CopyOnWriteArrayList<>();
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = lister(recordingLists(lists), 5, NAMES.size() - 1,
				null);
		V1ConfigMapList list = lister.list(new CallGeneratorParams(false, "0", null));
		assertThat(list.getItems()).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrderElementsOf(NAMES);
		assertThat(lists).extracting((url) -> url.queryParameter("labelSelector"))
			.containsExactly("paged=yes", "paged=yes", "paged=yes", "paged=yes");
	}

	@Test
	void aPageSizeOfZeroListsEverythingInOneRequestAtTheVersionAsked() throws Exception {
		List<HttpUrl> lists = new CopyOnWriteArrayList<>();
		ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister = lister(recordingLists(lists), 0,
				ScopedListerWatcher.DEFAULT_WATCH_CACHE_LIST_MAX, null);
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
		assertThatIllegalArgumentException().isThrownBy(() -> lister(this.client, -1, 0, null))
			.withMessageContaining("pageSize");
		assertThatIllegalArgumentException().isThrownBy(() -> lister(this.client, 5, -1, null))
			.withMessageContaining("watchCacheListMax");
		assertThatIllegalArgumentException().isThrownBy(() -> ControllerManager.builder(this.client).listPageSize(-1))
			.withMessageContaining("listPageSize");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerManager.builder(this.client).watchCacheListMax(-1))
			.withMessageContaining("watchCacheListMax");
	}

	@Test
	void theManagersInformersListInPagesOfItsListPageSize() throws Exception {
		assertThat(listsOfAManager(5, 0)).hasSize(3)
			.allSatisfy((url) -> assertThat(url.queryParameter("limit")).isEqualTo("5"));
		assertThat(listsOfAManager(0, ControllerManager.DEFAULT_WATCH_CACHE_LIST_MAX)).singleElement()
			.satisfies((url) -> assertThat(url.queryParameter("limit")).isNull());
		assertThat(listsOfAManager(ControllerManager.DEFAULT_LIST_PAGE_SIZE, 0)).singleElement()
			.satisfies((url) -> assertThat(url.queryParameter("limit")).isEqualTo("500"));
		// by default, a list this small is read whole from the watch cache
		assertThat(listsOfAManager(ControllerManager.DEFAULT_LIST_PAGE_SIZE,
				ControllerManager.DEFAULT_WATCH_CACHE_LIST_MAX))
			.singleElement()
			.satisfies((url) -> assertThat(url.queryParameter("limit")).isNull());
	}

	private List<HttpUrl> listsOfAManager(int pageSize, int watchCacheListMax) throws Exception {
		List<HttpUrl> lists = new CopyOnWriteArrayList<>();
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("paged-" + pageSize + "-" + watchCacheListMax)
			.namespaces(this.namespace.name())
			.reconcile((request) -> Result.done());
		ControllerManager manager = ControllerManager.builder(recordingLists(lists))
			.controller(definition)
			.listPageSize(pageSize)
			.watchCacheListMax(watchCacheListMax)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		assertThat(manager.listPageSize()).isEqualTo(pageSize);
		assertThat(manager.watchCacheListMax()).isEqualTo(watchCacheListMax);
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

	private ScopedListerWatcher<V1ConfigMap, V1ConfigMapList> lister(ApiClient client, int pageSize,
			int watchCacheListMax, @Nullable TransformFunc transform) {
		return new ScopedListerWatcher<>(client, ResourceType.of(V1ConfigMap.class), this.namespace.name(), "paged=yes",
				pageSize, watchCacheListMax, transform);
	}

}
