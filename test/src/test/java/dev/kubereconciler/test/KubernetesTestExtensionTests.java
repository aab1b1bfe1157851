package dev.kubereconciler.test;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for what {@link KubernetesTest} injects, against the shared server.
 */
@KubernetesTest
class KubernetesTestExtensionTests {

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	final ApiClient untouched = null;

	@Test
	void fieldsAndParametersGetTheSameClassWideValues(ApiClient client, TestNamespace namespace,
			KubernetesTestServer server) {
		assertThat(this.client).isSameAs(client);
		assertThat(this.namespace).isSameAs(namespace);
		assertThat(this.server).isSameAs(server).isSameAs(KubernetesTestServer.shared());
		assertThat(this.untouched).isNull();
	}

	@Test
	void theNamespaceExistsAndIsNamedAfterTheClass() throws ApiException {
		assertThat(this.namespace.name()).matches("kubernetestestextensiontests-[a-z0-9]{5}");
		assertThat(new CoreV1Api(this.client).readNamespace(this.namespace.name()).execute().getMetadata().getName())
			.isEqualTo(this.namespace.name());
	}

	@Test
	void theClientIsNotTheSharedServersProbe() {
		assertThat(this.client).isNotSameAs(this.server.apiClient());
		assertThat(this.client.getBasePath()).isEqualTo(this.server.url().toString());
	}

	@Nested
	class Inner {

		TestNamespace innerNamespace;

		@Test
		void nestedClassesShareTheEnclosingNamespaceAndClient(ApiClient client) {
			assertThat(this.innerNamespace).isSameAs(KubernetesTestExtensionTests.this.namespace);
			assertThat(client).isSameAs(KubernetesTestExtensionTests.this.client);
		}

	}

}
