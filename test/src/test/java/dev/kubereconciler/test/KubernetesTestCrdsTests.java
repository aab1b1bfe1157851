package dev.kubereconciler.test;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link KubernetesTest @KubernetesTest} with no CRDs named installs every
 * {@code META-INF/kubernetes/crds/*.yaml} before the application context starts.
 */
@KubernetesTest
@SpringBootTest(classes = CustomResourceLister.class, properties = "lists=gadgets,gizmos")
class KubernetesTestCrdsTests {

	@Autowired
	private CustomResourceLister.Listed listed;

	@Test
	void theDefaultFolderIsServedBeforeTheContextStarts(ApiClient client, TestNamespace namespace) {
		assertThat(this.listed.plurals()).containsExactly("gadgets", "gizmos");
		DynamicKubernetesObject gadget = new DynamicKubernetesObject(new JsonObject());
		gadget.setApiVersion(CustomResourceLister.GROUP + "/v1");
		gadget.setKind("Gadget");
		gadget.setMetadata(new V1ObjectMeta().name("first").namespace(namespace.name()));
		assertThat(new DynamicKubernetesApi(CustomResourceLister.GROUP, "v1", "gadgets", client).create(gadget)
			.isSuccess()).isTrue();
	}

}
