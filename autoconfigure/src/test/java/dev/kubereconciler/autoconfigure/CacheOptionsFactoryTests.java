package dev.kubereconciler.autoconfigure;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.FieldIndex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link CacheOptionsFactory}: the {@code kube-reconciler.cache.resources.*}
 * properties, bound by Spring's {@link Binder} as an application binds them, and
 * {@link FieldIndex} beans become the manager's cache options, and a value that cannot
 * work is refused with its property and the fix.
 */
class CacheOptionsFactoryTests {

	@Test
	void propertiesDeclareReadThroughAndSelectorsByResource() {
		CacheOptions options = create(Map.of("kube-reconciler.cache.resources.secrets.read-through", "true",
				"kube-reconciler.cache.resources.configmaps.label-selector", "tier=cache",
				"kube-reconciler.cache.resources.configmaps.field-selector", "metadata.name!=skipped",
				"kube-reconciler.cache.resources[backups.example.com].read-through", "true"), List.of());
		assertThat(options.isReadThrough(V1Secret.class)).isTrue();
		assertThat(options.readThroughResources()).containsExactlyInAnyOrder("secrets", "backups.example.com");
		assertThat(options.labelSelector(V1ConfigMap.class)).isEqualTo("tier=cache");
		assertThat(options.fieldSelector(V1ConfigMap.class)).isEqualTo("metadata.name!=skipped");
	}

	@Test
	void indexBeansAreAdded() {
		FieldIndex<V1ConfigMap> index = FieldIndex.of(V1ConfigMap.class, "secret",
				(configMap) -> configMap.getData().get("secret"));
		assertThat(create(Map.of(), List.of(index)).indexes(V1ConfigMap.class)).containsExactly(index);
	}

	@Test
	void readThroughWithSelectorsIsRefusedNamingTheProperty() {
		assertThatExceptionOfType(InvalidPropertyException.class)
			.isThrownBy(() -> create(Map.of("kube-reconciler.cache.resources.secrets.read-through", "true",
					"kube-reconciler.cache.resources.secrets.label-selector", "a=b"), List.of()))
			.satisfies((ex) -> assertThat(ex.getProperty())
				.isEqualTo("kube-reconciler.cache.resources[secrets].read-through"))
			.satisfies((ex) -> assertThat(ex.getAction())
				.contains("Remove kube-reconciler.cache.resources[secrets].label-selector"));
	}

	@Test
	void badFieldSelectorIsRefusedNamingTheProperty() {
		assertThatExceptionOfType(InvalidPropertyException.class)
			.isThrownBy(
					() -> create(Map.of("kube-reconciler.cache.resources.secrets.field-selector", "type"), List.of()))
			.satisfies((ex) -> assertThat(ex.getProperty())
				.isEqualTo("kube-reconciler.cache.resources[secrets].field-selector"))
			.satisfies((ex) -> assertThat(ex.getAction()).contains("--field-selector"));
	}

	@Test
	void badResourceNameIsRefusedNamingTheProperty() {
		assertThatExceptionOfType(InvalidPropertyException.class)
			.isThrownBy(() -> create(Map.of("kube-reconciler.cache.resources.Secret.read-through", "true"), List.of()))
			.satisfies((ex) -> assertThat(ex.getProperty()).startsWith("kube-reconciler.cache.resources["))
			.satisfies((ex) -> assertThat(ex.getAction()).contains("as kubectl does"));
	}

	private static CacheOptions create(Map<String, String> properties, List<FieldIndex<?>> indexes) {
		KubeReconcilerProperties bound = new Binder(new MapConfigurationPropertySource(properties))
			.bindOrCreate("kube-reconciler", Bindable.of(KubeReconcilerProperties.class));
		return CacheOptionsFactory.create(CacheOptions.defaults(), bound.getCache().getResources(), indexes);
	}

}
