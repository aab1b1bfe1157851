package dev.kubereconciler.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.JsonParser;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link CacheTransforms} against the real test API server, in a JVM started as
 * an application starts it: client-java decodes no {@code managedFields}. What the
 * transforms do to them where an application keeps them is in
 * {@link CacheTransformsWithManagedFieldsKeptTests}.
 */
@KubernetesTest
class CacheTransformsIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final List<ControllerManager> managers = new ArrayList<>();

	private final Map<String, V1ConfigMap> cached = new ConcurrentHashMap<>();

	ApiClient client;

	TestNamespace namespace;

	private String name;

	@BeforeEach
	void applyConfigMap(TestInfo test) throws ApiException {
		this.name = test.getTestMethod().orElseThrow().getName().toLowerCase(Locale.ROOT);
		apply(this.name);
	}

	private void apply(String name) throws ApiException {
		apply(name, "red");
	}

	private void apply(String name, String color) throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		String body = """
				{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"%s",
				"labels":{"app.kubernetes.io/name":"shop"}},"data":{"color":"%s"}}""".formatted(name,
				this.namespace.name(), color);
		PatchUtils.patch(V1ConfigMap.class,
				() -> core.patchNamespacedConfigMap(name, this.namespace.name(), new V1Patch(body))
					.fieldManager("cache-tests")
					.force(true)
					.buildCall(null),
				V1Patch.PATCH_FORMAT_APPLY_YAML, this.client);
	}

	@AfterEach
	void stopManagers() {
		this.managers.forEach(ControllerManager::stop);
	}

	@Test
	void clientJavaStartedWithoutFlagsDecodesNoManagedFields() throws Exception {
		// the world of an application started as the README starts it: the server holds
		// managedFields, client-java's models never show them, so nothing of ours may
		// depend on reading them from a model
		Request request = new Request.Builder()
			.url(this.client.getBasePath() + "/api/v1/namespaces/" + this.namespace.name() + "/configmaps/" + this.name)
			.build();
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			assertThat(JsonParser.parseString(response.body().string())
				.getAsJsonObject()
				.getAsJsonObject("metadata")
				.getAsJsonArray("managedFields")).isNotEmpty();
		}
		assertThat(new CoreV1Api(this.client).readNamespacedConfigMap(this.name, this.namespace.name())
			.execute()
			.getMetadata()
			.getManagedFields()).isNullOrEmpty();
		start(CacheTransforms.defaults().stripManagedFields(false));
		assertThat(this.cached.get(this.name).getMetadata().getManagedFields()).isNullOrEmpty();
	}

	@Test
	void metadataOnlyKeepsTypeAndMetadataButNotData() {
		start(CacheTransforms.defaults().metadataOnly(V1ConfigMap.class));
		V1ConfigMap configMap = this.cached.get(this.name);
		assertThat(configMap.getData()).isNullOrEmpty();
		assertThat(configMap.getMetadata().getName()).isEqualTo(this.name);
		assertThat(configMap.getMetadata().getResourceVersion()).isNotEmpty();
		assertThat(configMap.getMetadata().getManagedFields()).isNull();
	}

	@Test
	void typeTransformSeesWatchedChanges() throws ApiException {
		start(CacheTransforms.defaults().transform(V1ConfigMap.class, (configMap) -> {
			configMap.getMetadata().putAnnotationsItem("color-seen", configMap.getData().get("color"));
			return configMap;
		}));
		assertThat(this.cached.get(this.name).getMetadata().getAnnotations()).containsEntry("color-seen", "red");
		apply(this.name, "blue");
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(this.cached.get(this.name).getMetadata().getAnnotations())
				.containsEntry("color-seen", "blue"));
	}

	@Test
	void failingTypeTransformCachesTheObjectAsReceived() {
		start(CacheTransforms.defaults().stripManagedFields(false).transform(V1ConfigMap.class, (configMap) -> {
			throw new IllegalStateException("on purpose");
		}));
		assertThat(this.cached.get(this.name).getData()).containsEntry("color", "red");
	}

	@Test
	void cachedObjectsShareRepeatedStringsByDefault() throws ApiException {
		apply(this.name + "-2");
		ControllerManager manager = start(CacheTransforms.defaults(), this.name + "-2");
		V1ConfigMap first = cached(manager, this.name);
		V1ConfigMap second = cached(manager, this.name + "-2");
		assertThat(second.getMetadata().getNamespace()).isSameAs(first.getMetadata().getNamespace());
		assertThat(key(second.getMetadata().getLabels())).isSameAs(key(first.getMetadata().getLabels()));
		assertThat(second.getMetadata().getLabels().get("app.kubernetes.io/name"))
			.isSameAs(first.getMetadata().getLabels().get("app.kubernetes.io/name"));
		assertThat(key(second.getData())).isSameAs(key(first.getData()));
		assertThat(second.getMetadata().getCreationTimestamp()).isNotNull();
		// still readable, and still mutable for code that changes what a lister returns
		assertThat(first.getMetadata().getLabels()).containsExactly(Map.entry("app.kubernetes.io/name", "shop"));
		assertThat(first.getData()).containsExactly(Map.entry("color", "red"));
		assertThat(first.getMetadata().getLabels()).isInstanceOf(CompactMap.class);
		assertThat(first.getMetadata().getManagedFields()).isNull();
	}

	@Test
	void compactionOffCachesObjectsAsDecoded() throws ApiException {
		apply(this.name + "-2");
		ControllerManager manager = start(CacheTransforms.defaults().compact(false), this.name + "-2");
		V1ConfigMap first = cached(manager, this.name);
		V1ConfigMap second = cached(manager, this.name + "-2");
		assertThat(second.getMetadata().getNamespace()).isEqualTo(first.getMetadata().getNamespace())
			.isNotSameAs(first.getMetadata().getNamespace());
		assertThat(key(second.getMetadata().getLabels())).isEqualTo(key(first.getMetadata().getLabels()))
			.isNotSameAs(key(first.getMetadata().getLabels()));
		assertThat(first.getMetadata().getLabels()).isNotInstanceOf(CompactMap.class);
		assertThat(first.getData()).isNotInstanceOf(CompactMap.class);
		assertThat(first.getMetadata().getManagedFields()).isNull();
	}

	@Test
	void reconcilersGetMutableCopiesOfCompactedObjects() {
		Map<String, String> seen = new ConcurrentHashMap<>();
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("cache-copies")
			.namespaces(this.namespace.name())
			.reconcile((configMap, context) -> {
				configMap.getMetadata().putLabelsItem("seen", "yes");
				configMap.getData().remove("color");
				V1ConfigMap read = context
					.get(V1ConfigMap.class, configMap.getMetadata().getNamespace(), configMap.getMetadata().getName())
					.orElseThrow();
				read.getData().put("read", "changed");
				for (V1ConfigMap listed : context.list(V1ConfigMap.class, this.namespace.name(), null)) {
					listed.getMetadata().getLabels().clear();
				}
				seen.put(configMap.getMetadata().getName(), configMap.getMetadata().getLabels().get("seen")
						+ configMap.getData().keySet() + read.getData().keySet());
				return Result.done();
			});
		ControllerManager manager = ControllerManager.builder(this.client)
			.controller(definition)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		this.managers.add(manager);
		manager.start();
		await().atMost(TIMEOUT).until(() -> seen.containsKey(this.name));
		assertThat(seen.get(this.name)).isEqualTo("yes[][color, read]");
		V1ConfigMap cached = manager.lister(V1ConfigMap.class).namespace(this.namespace.name()).get(this.name);
		assertThat(cached.getMetadata().getLabels()).isInstanceOf(CompactMap.class)
			.containsExactly(Map.entry("app.kubernetes.io/name", "shop"));
		assertThat(cached.getData()).containsExactly(Map.entry("color", "red"));
	}

	@Test
	void metadataOnlyRejectsATypeItCannotCopy() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CacheTransforms.defaults().metadataOnly(NoDefaultConstructor.class))
			.withMessageContaining(NoDefaultConstructor.class.getName())
			.withMessageContaining("no-argument constructor");
	}

	private V1ConfigMap cached(ControllerManager manager, String name) {
		return manager.lister(V1ConfigMap.class).namespace(this.namespace.name()).get(name);
	}

	private static String key(Map<String, String> map) {
		return map.keySet().iterator().next();
	}

	private ControllerManager start(CacheTransforms transforms, String... others) {
		ControllerManager[] holder = new ControllerManager[1];
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("cache")
			.namespaces(this.namespace.name())
			.reconcile((request) -> {
				V1ConfigMap configMap = holder[0].lister(V1ConfigMap.class)
					.namespace(request.namespace())
					.get(request.name());
				if (configMap != null) {
					this.cached.put(request.name(), configMap);
				}
				return Result.done();
			});
		ControllerManager manager = ControllerManager.builder(this.client)
			.controller(definition)
			.cacheTransforms(transforms)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		holder[0] = manager;
		this.managers.add(manager);
		manager.start();
		await().atMost(TIMEOUT)
			.until(() -> this.cached.containsKey(this.name)
					&& Arrays.stream(others).allMatch(this.cached::containsKey));
		return manager;
	}

	/**
	 * A model type the metadata-only transform cannot construct.
	 */
	static final class NoDefaultConstructor extends V1ConfigMap {

		NoDefaultConstructor(String name) {
			metadata(new V1ObjectMeta().name(name));
		}

	}

}
