package dev.kubereconciler.test;

import io.kubernetes.client.openapi.ApiClient;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Spring test configuration that points an application at the JVM's
 * {@linkplain KubernetesTestServer#shared() shared} Kubernetes test server.
 *
 * <p>
 * Import it into a Spring Boot test ({@code @Import(KubernetesTestConfiguration.class)})
 * to get an admin {@link ApiClient} bean; add {@link KubernetesTest @KubernetesTest} for
 * the skip-or-fail behaviour when the binaries are missing and a namespace of the test's
 * own. Where a property is wanted instead, a {@code @DynamicPropertySource} method can
 * read the shared server directly:
 *
 * <pre class="code">
 * &#064;DynamicPropertySource
 * static void kubernetes(DynamicPropertyRegistry registry) {
 * 	registry.add("kubeconfig", () -&gt; KubernetesTestServer.shared().kubeconfig().toString());
 * }
 * </pre>
 */
@TestConfiguration(proxyBeanMethods = false)
public final class KubernetesTestConfiguration {

	// the shared server outlives every application context; Spring must not close it
	@Bean(destroyMethod = "")
	KubernetesTestServer kubernetesTestServer() {
		return KubernetesTestServer.shared();
	}

	// the application's requests are recorded, so that RbacProofExtension can check each
	// against the RBAC rules the application derives
	@Bean
	ApiRequestRecorder kubernetesTestApiRequestRecorder() {
		return new ApiRequestRecorder();
	}

	@Bean
	ApiClient kubernetesTestApiClient(KubernetesTestServer kubernetesTestServer, ApiRequestRecorder recorder) {
		return recorder.attach(kubernetesTestServer.apiClient());
	}

}
