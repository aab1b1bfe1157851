package dev.kubereconciler.cache;

import java.util.List;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link CacheOptions} and {@link FieldIndex}: types are named by their
 * resource, and what cannot work is refused with the fix.
 */
class CacheOptionsTests {

	@Test
	void typesAreNamedByTheirResourceAsKubectlNamesThem() {
		assertThat(CacheOptions.resourceOf(V1Secret.class)).isEqualTo("secrets");
		assertThat(CacheOptions.resourceOf(V1Deployment.class)).isEqualTo("deployments.apps");
		CacheOptions options = CacheOptions.defaults().readThrough("secrets");
		assertThat(options.isReadThrough(V1Secret.class)).isTrue();
		assertThat(options.isReadThrough(V1ConfigMap.class)).isFalse();
	}

	@Test
	void selectorsAreKeptPerType() {
		CacheOptions options = CacheOptions.defaults()
			.selectors(V1ConfigMap.class, "tier in (a,b)", "metadata.name!=skipped, type=x");
		assertThat(options.labelSelector(V1ConfigMap.class)).isEqualTo("tier in (a,b)");
		assertThat(options.fieldSelector(V1ConfigMap.class)).isEqualTo("metadata.name!=skipped,type=x");
		assertThat(options.labelSelector(V1Secret.class)).isNull();
	}

	@Test
	void readThroughAndSelectorsOnOneTypeAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CacheOptions.defaults().readThrough(V1Secret.class).selectors(V1Secret.class, "a=b", ""))
			.withMessageContaining("choose one");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CacheOptions.defaults().selectors(V1Secret.class, "a=b", "").readThrough(V1Secret.class))
			.withMessageContaining("choose one");
	}

	@Test
	void aNameThatIsNoResourceOrABadFieldSelectorIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> CacheOptions.defaults().readThrough("V1Secret"))
			.withMessageContaining("secrets, deployments.apps");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CacheOptions.defaults().selectors(V1Secret.class, "", "type"))
			.withMessageContaining("key=value");
	}

	@Test
	void twoIndexesOfOneNameOnOneTypeAreRefusedAndReservedNamesToo() {
		FieldIndex<V1ConfigMap> index = FieldIndex.of(V1ConfigMap.class, "secret", (configMap) -> "a");
		assertThat(CacheOptions.defaults().index(index).index(index).indexes()).containsExactly(index);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CacheOptions.defaults()
				.index(index)
				.index(new FieldIndex<>(V1ConfigMap.class, "secret", (configMap) -> List.of("b"))))
			.withMessageContaining("give each its own name");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FieldIndex.of(V1ConfigMap.class, "kube-reconciler/owner-uid", (configMap) -> "a"))
			.withMessageContaining("framework's own");
	}

	@Test
	void anIndexWithoutAValueGivesNone() {
		FieldIndex<V1ConfigMap> index = FieldIndex.of(V1ConfigMap.class, "secret", (configMap) -> null);
		assertThat(index.valuesOf(new V1ConfigMap())).isEmpty();
	}

}
