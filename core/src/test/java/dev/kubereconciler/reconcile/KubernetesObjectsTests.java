package dev.kubereconciler.reconcile;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubernetesObjects}: every message names an object the same way.
 */
class KubernetesObjectsTests {

	@Test
	void anObjectIsNamedByKindNamespaceAndName() {
		assertThat(KubernetesObjects.describe(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("a").name("b"))))
			.isEqualTo("ConfigMap a/b");
		assertThat(KubernetesObjects.describe(new V1Namespace().metadata(new V1ObjectMeta().name("team"))))
			.isEqualTo("Namespace team");
		assertThat(KubernetesObjects
			.describe(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("a").generateName("b-"))))
			.isEqualTo("ConfigMap a/b-<generated>");
		assertThat(KubernetesObjects.describe(new V1ConfigMap())).isEqualTo("ConfigMap");
	}

	@Test
	void theKindIsTheModelsWithoutClientJavasVersionPrefix() {
		assertThat(KubernetesObjects.kind(new V2HorizontalPodAutoscaler())).isEqualTo("HorizontalPodAutoscaler");
		assertThat(KubernetesObjects.kind(new CoreV1Event())).isEqualTo("Event");
		assertThat(KubernetesObjects.kind(new V1ConfigMap().kind("ConfigMap"))).isEqualTo("ConfigMap");
	}

}
