package dev.kubereconciler.cluster;

import java.util.List;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.cache.IndexMapper;
import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What a mapped watch across clusters refuses, each with the fix in its message.
 */
class WatchedClusterTests {

	@Test
	void anEmptyMemberNameIsRefusedForTheLocalCluster() {
		assertThatIllegalArgumentException().isThrownBy(() -> WatchedCluster.named(""))
			.withMessageContaining("WatchedCluster.local()");
	}

	@Test
	void aMemberWatchOfAControllerOfTheLocalClusterOnlyIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerDefinition.builder(V1ConfigMap.class)
				.mapsFrom(WatchedCluster.named("two"), V1Secret.class, (secret) -> List.of())
				.reconcile((configMap, context) -> Result.done()))
			.withMessageContaining("Controller 'configmap' maps V1Secret from cluster 'two'")
			.withMessageContaining("clusters(ClusterScope.FLEET)");
	}

	@Test
	void aHubWatchOfAControllerOfTheLocalClusterOnlyIsTaken() {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.mapsFrom(WatchedCluster.local(), V1Secret.class, (secret) -> List.of())
			.reconcile((configMap, context) -> Result.done());
		assertThat(definition.mappedWatches()).singleElement()
			.satisfies((watch) -> assertThat(watch.cluster()).isEqualTo(WatchedCluster.local()));
	}

	@Test
	void aWatchAcrossClustersCannotMapByAnIndex() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MappedWatch<>(V1Secret.class,
					new IndexMapper<V1Secret>("by-secret", (secret) -> List.of()), WatchedCluster.local()))
			.withMessageContaining("cannot map by an index");
	}

}
