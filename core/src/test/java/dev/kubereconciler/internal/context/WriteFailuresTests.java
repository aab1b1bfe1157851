package dev.kubereconciler.internal.context;

import java.util.Map;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WriteFailures}: each write of a {@link KubernetesWriter} is named,
 * with its object.
 */
class WriteFailuresTests {

	private static final String ITEM = "/api/v1/namespaces/a/configmaps/b";

	@Test
	void eachRequestIsNamedAsTheWriteItIs() {
		assertThat(WriteFailures.write("POST", "application/json", "/api/v1/namespaces/a/configmaps"))
			.isEqualTo("create");
		assertThat(WriteFailures.write("PUT", "application/json", ITEM)).isEqualTo("update");
		assertThat(WriteFailures.write("PUT", "application/json", ITEM + "/status")).isEqualTo("status update");
		assertThat(WriteFailures.write("PATCH", KubernetesWriter.MERGE_PATCH, ITEM)).isEqualTo("merge patch");
		assertThat(WriteFailures.write("PATCH", KubernetesWriter.MERGE_PATCH, ITEM + "/status"))
			.isEqualTo("status merge patch");
		assertThat(WriteFailures.write("PATCH", KubernetesWriter.APPLY_PATCH, ITEM)).isEqualTo("apply");
		assertThat(WriteFailures.write("PATCH", KubernetesWriter.APPLY_PATCH, ITEM + "/status"))
			.isEqualTo("status apply");
		assertThat(WriteFailures.write("DELETE", "application/json", ITEM)).isEqualTo("delete");
	}

	@Test
	void theObjectIsNamedByKindNamespaceAndName() {
		ApiException refused = new ApiException(422, Map.of(), "{\"kind\":\"Status\",\"reason\":\"Invalid\"}");
		assertThat(WriteFailures.of("update", new V1ConfigMap().metadata(new V1ObjectMeta().namespace("a").name("b")),
				refused))
			.hasMessageStartingWith("update of ConfigMap a/b failed: 422 Invalid");
		assertThat(WriteFailures.of("update", new V1Namespace().metadata(new V1ObjectMeta().name("a")), refused))
			.hasMessageStartingWith("update of Namespace a failed: ");
		assertThat(WriteFailures.of("create",
				new V1ConfigMap().metadata(new V1ObjectMeta().namespace("a").generateName("b-")), refused))
			.hasMessageStartingWith("create of ConfigMap a/b-<generated> failed: ");
	}

}
