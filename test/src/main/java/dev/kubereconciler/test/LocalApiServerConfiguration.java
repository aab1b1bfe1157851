package dev.kubereconciler.test;

import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdInstaller;

/**
 * Runs an application at development time against a local Kubernetes API server: the
 * JVM's {@linkplain KubernetesTestServer#shared() shared} etcd and kube-apiserver on
 * loopback, with every {@code META-INF/kubernetes/crds/*.yaml} of the class path
 * installed before the controllers start.
 *
 * <p>
 * Pass it to the application from a class of the test tree, which
 * {@code spring-boot:test-run} starts:
 *
 * <pre class="code">
 * public static void main(String[] args) {
 * 	SpringApplication.from(MyApplication::main).with(LocalApiServerConfiguration.class).run(args);
 * }
 * </pre>
 *
 * <p>
 * It is an API server, not a cluster: no node runs the pods, and no controller manager
 * collects garbage. The kubeconfig for {@code kubectl} is logged once the application is
 * ready; the server stops with the JVM.
 */
@TestConfiguration(proxyBeanMethods = false)
@Import(KubernetesTestConfiguration.class)
public final class LocalApiServerConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(LocalApiServerConfiguration.class);

	// a bean rather than a listener: it runs while the context starts, before the
	// controllers, which start with the context's lifecycle, list the custom resources
	@Bean
	InitializingBean localApiServerCrds(ApiClient apiClient, ApplicationContext context) {
		ClassLoader classLoader = (context.getClassLoader() != null) ? context.getClassLoader()
				: LocalApiServerConfiguration.class.getClassLoader();
		return () -> new CrdInstaller(apiClient, KubernetesTestExtension.FIELD_MANAGER)
			.install(new CrdFiles(classLoader).find(List.of(), List.of()));
	}

	@Bean
	ApplicationListener<ApplicationReadyEvent> localApiServerReady(KubernetesTestServer server) {
		return (event) -> logger.info("Local Kubernetes API server at {}; for kubectl: export KUBECONFIG={}",
				server.url(), server.kubeconfig());
	}

}
