package dev.kubereconciler.test;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubernetesTestConfiguration}.
 */
@KubernetesTest
class KubernetesTestConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(KubernetesTestConfiguration.class);

	@Test
	void providesAWorkingClientForTheSharedServerAndLeavesTheServerRunning() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ApiClient.class).hasSingleBean(KubernetesTestServer.class);
			assertThat(context.getBean(KubernetesTestServer.class)).isSameAs(KubernetesTestServer.shared());
			assertThat(new CoreV1Api(context.getBean(ApiClient.class)).readNamespace("default").execute()).isNotNull();
		});
		assertThat(KubernetesTestServer.shared().isApiServerRunning()).isTrue();
	}

}
