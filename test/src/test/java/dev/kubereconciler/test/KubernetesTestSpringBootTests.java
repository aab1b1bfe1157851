package dev.kubereconciler.test;

import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a {@code @SpringBootTest} of {@link KubernetesTest @KubernetesTest} runs its
 * application against the test server with nothing imported and no property set.
 */
@KubernetesTest
@SpringBootTest(classes = KubernetesTestSpringBootTests.Application.class)
class KubernetesTestSpringBootTests {

	@Autowired
	private ApplicationContext context;

	@Test
	void theApplicationsClientIsOnTheSharedServer(KubernetesTestServer server) {
		assertThat(this.context.getBeansOfType(ApiClient.class)).hasSize(1);
		assertThat(this.context.getBean(ApiClient.class).getBasePath()).isEqualTo(server.url().toString());
		assertThat(this.context.getBean(KubernetesTestServer.class)).isSameAs(server);
	}

	@Test
	void theApplicationSeesWhatTheTestCreatedInItsNamespace(ApiClient client, TestNamespace namespace)
			throws ApiException {
		new CoreV1Api(client)
			.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("settings")).data(Map.of("level", "debug")))
			.execute();
		ApiClient application = this.context.getBean(ApiClient.class);
		assertThat(application).isNotSameAs(client);
		V1ConfigMap read = new CoreV1Api(application).readNamespacedConfigMap("settings", namespace.name()).execute();
		assertThat(read.getData()).containsEntry("level", "debug");
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	static class Application {

	}

}
