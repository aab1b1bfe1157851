package dev.kubereconciler.test;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link LocalApiServerConfiguration} runs an application, started from its
 * main method as at development time, against the shared server with the class path's
 * CRDs served.
 */
@KubernetesTest
class LocalApiServerConfigurationTests {

	@Test
	void startsTheApplicationAgainstTheSharedServerWithItsCrdsServed(KubernetesTestServer server) {
		try (ConfigurableApplicationContext context = SpringApplication.from(DevelopedApplication::main)
			.with(LocalApiServerConfiguration.class)
			.run("--lists=gadgets,gizmos")
			.getApplicationContext()) {
			ApiClient client = context.getBean(ApiClient.class);
			assertThat(client.getBasePath()).isEqualTo(server.url().toString());
			assertThat(context.getBean(CustomResourceLister.Listed.class).plurals()).containsExactly("gadgets",
					"gizmos");
			assertThat(new DynamicKubernetesApi(CustomResourceLister.GROUP, "v1", "gizmos", client).list().isSuccess())
				.isTrue();
		}
	}

	/**
	 * An application with a main method of its own, as a user's is.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	static class DevelopedApplication {

		public static void main(String[] args) {
			SpringApplication.run(CustomResourceLister.class, args);
		}

	}

}
