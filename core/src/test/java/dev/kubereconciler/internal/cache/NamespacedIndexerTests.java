package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import io.kubernetes.client.informer.cache.Cache;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.DeltaFIFO;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Tests for {@link NamespacedIndexer}: it answers as client-java's {@link Cache} does.
 */
class NamespacedIndexerTests {

	private static final String OWNER_INDEX = "owner";

	private static final Function<V1ConfigMap, List<String>> OWNERS = (
			configMap) -> configMap.getMetadata().getOwnerReferences().stream().map(V1OwnerReference::getUid).toList();

	private static final List<String> NAMESPACES = List.of("a", "b", "");

	@Test
	void answersAsClientJavasCacheThroughAnySequenceOfChanges() {
		Cache<V1ConfigMap> cache = new Cache<>();
		NamespacedIndexer<V1ConfigMap> indexer = new NamespacedIndexer<>();
		cache.addIndexers(Map.of(OWNER_INDEX, OWNERS));
		indexer.addIndexers(Map.of(OWNER_INDEX, OWNERS));
		Random random = new Random(27);
		for (int step = 0; step < 3000; step++) {
			int operation = random.nextInt(20);
			if (operation == 0) {
				List<V1ConfigMap> objects = new ArrayList<>();
				for (int i = random.nextInt(20); i > 0; i--) {
					objects.add(configMap(random, step));
				}
				cache.replace(new ArrayList<>(objects), "v" + step);
				indexer.replace(new ArrayList<>(objects), "v" + step);
			}
			else if (operation < 7) {
				V1ConfigMap object = configMap(random, step);
				cache.delete(object);
				indexer.delete(object);
			}
			else {
				V1ConfigMap object = configMap(random, step);
				if (operation < 13) {
					cache.add(object);
					indexer.add(object);
				}
				else {
					cache.update(object);
					indexer.update(object);
				}
			}
			assertSameAnswers(cache, indexer);
		}
	}

	private static V1ConfigMap configMap(Random random, int step) {
		String namespace = NAMESPACES.get(random.nextInt(NAMESPACES.size()));
		V1ObjectMeta metadata = new V1ObjectMeta().name("cm-" + random.nextInt(12))
			.namespace(namespace.isEmpty() && random.nextBoolean() ? null : namespace)
			.resourceVersion(String.valueOf(step));
		for (int i = random.nextInt(3); i > 0; i--) {
			metadata.addOwnerReferencesItem(new V1OwnerReference().uid("owner-" + random.nextInt(4)));
		}
		return new V1ConfigMap().metadata(metadata);
	}

	private static void assertSameAnswers(Cache<V1ConfigMap> cache, NamespacedIndexer<V1ConfigMap> indexer) {
		assertThat(indexer.list()).containsExactlyInAnyOrderElementsOf(cache.list());
		assertThat(indexer.listKeys()).containsExactlyInAnyOrderElementsOf(cache.listKeys());
		for (String key : cache.listKeys()) {
			assertThat(indexer.getByKey(key)).isSameAs(cache.getByKey(key));
		}
		for (String namespace : NAMESPACES) {
			for (int i = 0; i < 12; i++) {
				assertThat(indexer.getByKey(namespace.isEmpty() ? "cm-" + i : namespace + "/cm-" + i))
					.isSameAs(cache.getByKey(namespace.isEmpty() ? "cm-" + i : namespace + "/cm-" + i));
			}
			if (!namespace.isEmpty()) {
				assertThat(indexer.byIndex(Caches.NAMESPACE_INDEX, namespace))
					.containsExactlyInAnyOrderElementsOf(byIndex(cache, Caches.NAMESPACE_INDEX, namespace));
			}
		}
		for (int i = 0; i < 4; i++) {
			assertThat(indexer.byIndex(OWNER_INDEX, "owner-" + i))
				.containsExactlyInAnyOrderElementsOf(byIndex(cache, OWNER_INDEX, "owner-" + i));
		}
		for (V1ConfigMap object : cache.list()) {
			assertThat(indexer.index(OWNER_INDEX, object))
				.containsExactlyInAnyOrderElementsOf(cache.index(OWNER_INDEX, object));
			assertThat(indexer.get(object)).isSameAs(cache.get(object));
		}
	}

	/**
	 * The cache's answer, where a {@code replace} that left an index without a value
	 * makes it throw rather than answer that nothing is indexed.
	 */
	private static List<V1ConfigMap> byIndex(Cache<V1ConfigMap> cache, String index, String value) {
		try {
			return cache.byIndex(index, value);
		}
		catch (NullPointerException ex) {
			return List.of();
		}
	}

	@Test
	void aRelistThatFindsNothingLeavesEveryIndexAnswering() {
		Cache<V1ConfigMap> cache = new Cache<>();
		NamespacedIndexer<V1ConfigMap> indexer = new NamespacedIndexer<>();
		indexer.addIndexers(Map.of(OWNER_INDEX, OWNERS));
		indexer.add(new V1ConfigMap().metadata(new V1ObjectMeta().name("one").namespace("team")));
		indexer.replace(List.of(), "2");
		assertThat(indexer.byIndex(Caches.NAMESPACE_INDEX, "team")).isEmpty();
		assertThat(indexer.byIndex(OWNER_INDEX, "o")).isEmpty();
		// client-java's cache, which lists a namespace through the lister, throws instead
		cache.replace(List.of(), "2");
		assertThat(catchThrowable(() -> cache.byIndex(Caches.NAMESPACE_INDEX, "team")))
			.isInstanceOf(NullPointerException.class);
	}

	@Test
	void clusterScopedObjectsAreKeyedByNameAndIndexedUnderTheEmptyNamespace() {
		NamespacedIndexer<V1ConfigMap> indexer = new NamespacedIndexer<>();
		V1ConfigMap cluster = new V1ConfigMap().metadata(new V1ObjectMeta().name("one"));
		V1ConfigMap namespaced = new V1ConfigMap().metadata(new V1ObjectMeta().name("one").namespace("team"));
		indexer.add(cluster);
		indexer.add(namespaced);
		assertThat(indexer.listKeys()).containsExactlyInAnyOrder("one", "team/one");
		assertThat(indexer.getByKey("one")).isSameAs(cluster);
		assertThat(indexer.getByKey("team/one")).isSameAs(namespaced);
		assertThat(indexer.byIndex(Caches.NAMESPACE_INDEX, "")).containsExactly(cluster);
		assertThat(indexer.indexKeys(Caches.NAMESPACE_INDEX, "team")).containsExactly("team/one");
		assertThat(indexer.getByKey("other/one")).isNull();
	}

	@Test
	void deletingWhatTheQueueOnlyKnowsByItsFinalStateRemovesIt() {
		NamespacedIndexer<V1ConfigMap> indexer = new NamespacedIndexer<>();
		V1ConfigMap object = new V1ConfigMap().metadata(new V1ObjectMeta().name("gone").namespace("team"));
		indexer.add(object);
		// a relist that no longer finds an object deletes it through its last known state
		DeltaFIFO queue = new DeltaFIFO(Caches::deletionHandlingMetaNamespaceKeyFunc, indexer);
		queue.replace(List.of(), "2");
		assertThat(queue.listKeys()).containsExactly("team/gone");
		Indexer<V1ConfigMap> store = indexer;
		assertThat(store.getByKey("team/gone")).isSameAs(object);
		indexer.delete(object);
		assertThat(indexer.list()).isEmpty();
		assertThat(indexer.byIndex(Caches.NAMESPACE_INDEX, "team")).isEmpty();
	}

	@Test
	void indexersAreAddedOnlyToAnEmptyStoreAndNeverTwice() {
		NamespacedIndexer<V1ConfigMap> indexer = new NamespacedIndexer<>();
		assertThat(indexer.getIndexers()).containsOnlyKeys(Caches.NAMESPACE_INDEX);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> indexer.addIndexers(Map.of(Caches.NAMESPACE_INDEX, OWNERS)))
			.withMessageContaining("indexer conflict");
		indexer.addIndexers(Map.of(OWNER_INDEX, OWNERS));
		assertThat(indexer.getIndexers()).containsOnlyKeys(Caches.NAMESPACE_INDEX, OWNER_INDEX);
		indexer.add(new V1ConfigMap().metadata(new V1ObjectMeta().name("one").namespace("team")));
		assertThatIllegalStateException().isThrownBy(() -> indexer.addIndexers(Map.of("other", OWNERS)));
		assertThatIllegalArgumentException().isThrownBy(() -> indexer.byIndex("missing", "x"))
			.withMessageContaining("missing");
	}

	@Test
	void anIndexValueWhoseLastObjectLeftKeepsNoEntry() {
		NamespacedIndexer<V1ConfigMap> indexer = new NamespacedIndexer<>();
		indexer.addIndexers(Map.of(OWNER_INDEX, OWNERS));
		V1ConfigMap owned = new V1ConfigMap().metadata(new V1ObjectMeta().name("one")
			.namespace("team")
			.addOwnerReferencesItem(new V1OwnerReference().uid("o")));
		indexer.add(owned);
		assertThat(indexer.indexKeys(OWNER_INDEX, "o")).containsExactly("team/one");
		indexer.update(new V1ConfigMap().metadata(new V1ObjectMeta().name("one").namespace("team")));
		assertThat(indexer.indexKeys(OWNER_INDEX, "o")).isEmpty();
		assertThat(indexer.byIndex(OWNER_INDEX, "o")).isEmpty();
	}

}
