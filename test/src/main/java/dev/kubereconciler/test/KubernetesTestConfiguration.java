package dev.kubereconciler.test;

import io.kubernetes.client.openapi.ApiClient;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.test.rbac.ApiRequestRecorder;

/**
 * Spring test configuration that points an application at the JVM's
 * {@linkplain KubernetesTestServer#shared() shared} Kubernetes test server.
 *
 * <p>
 * It gives an admin {@link ApiClient} bean, whose requests the RBAC proof checks. A
 * Spring test class of {@link KubernetesTest @KubernetesTest} gets it without importing
 * it; contexts that spring-test does not build, such as an
 * {@code ApplicationContextRunner}'s or a {@code SpringApplicationBuilder}'s, name it
 * themselves. Where a property is wanted instead, a {@code @DynamicPropertySource} method
 * can read the shared server directly:
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
