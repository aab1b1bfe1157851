package dev.kubereconciler.internal.cache;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NamespacedInformers} and its {@link AcrossNamespaces} store, with
 * informers that never run: their stores are filled by hand.
 */
class NamespacedInformersTests {

	// never called: the informers are not started
	private static final ListerWatcher<V1ConfigMap, V1ConfigMapList> UNUSED = new ListerWatcher<>() {

		@Override
		public V1ConfigMapList list(io.kubernetes.client.util.CallGeneratorParams params) {
			throw new UnsupportedOperationException();
		}

		@Override
		public io.kubernetes.client.util.Watchable<V1ConfigMap> watch(
				io.kubernetes.client.util.CallGeneratorParams params) {
			throw new UnsupportedOperationException();
		}

	};

	private final Map<String, SharedIndexInformer<V1ConfigMap>> made = new HashMap<>();

	private final NamespacedInformers<V1ConfigMap> informers = new NamespacedInformers<>(Set.of("blue", "red"),
			(namespace) -> {
				SharedIndexInformer<V1ConfigMap> informer = InformerFactory.namespaceInformer(UNUSED, V1ConfigMap.class,
						0, (type, failure) -> {
						});
				this.made.put(namespace, informer);
				return informer;
			});

	@Test
	void aReadByKeyOrNamespaceGoesToThatNamespacesInformerAndAListReadsThemAll() {
		put("blue", "a");
		put("red", "a");
		put("red", "b");
		assertThat(this.informers.getIndexer().getByKey("red/a").getMetadata().getNamespace()).isEqualTo("red");
		assertThat(this.informers.getIndexer().getByKey("green/a")).isNull();
		assertThat(this.informers.getIndexer().list()).hasSize(3);
		assertThat(this.informers.getIndexer().listKeys()).containsExactlyInAnyOrder("blue/a", "red/a", "red/b");
		assertThat(this.informers.getIndexer().byIndex(Caches.NAMESPACE_INDEX, "red")).hasSize(2);
		assertThat(this.informers.getIndexer().byIndex(Caches.NAMESPACE_INDEX, "green")).isEmpty();
	}

	@Test
	void aNamespaceAddedLaterTakesTheIndexesAndARemovedOneLeavesTheView() {
		this.informers.addIndexers(Map.of("by-name", (object) -> List.of(object.getMetadata().getName())));
		assertThat(this.informers.addNamespace("green")).isTrue();
		assertThat(this.informers.addNamespace("green")).isFalse();
		put("green", "a");
		put("blue", "a");
		assertThat(this.informers.getIndexer().getIndexers()).containsKeys("by-name", Caches.NAMESPACE_INDEX);
		assertThat(this.informers.getIndexer().byIndex("by-name", "a")).hasSize(2);
		assertThat(this.informers.removeNamespace("blue")).isTrue();
		assertThat(this.informers.namespaces()).containsExactly("green", "red");
		assertThat(this.informers.getIndexer().listKeys()).containsExactly("green/a");
		assertThat(this.informers.getIndexer().getByKey("blue/a")).isNull();
	}

	@Test
	void aStoppedViewTakesNoNamespace() {
		this.informers.stop();
		assertThat(this.informers.isStopped()).isTrue();
		assertThat(this.informers.addNamespace("green")).isFalse();
		assertThat(this.informers.namespaces()).containsExactly("blue", "red");
	}

	private void put(String namespace, String name) {
		this.made.get(namespace)
			.getIndexer()
			.add(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name)));
	}

}
