package dev.kubereconciler.test;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * An application that lists the test CRDs' resources named by the property {@code lists}
 * while its context starts, as a controller's informer would: it starts only if they are
 * served by then.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
class CustomResourceLister {

	static final String GROUP = "crds.test.kubereconciler.dev";

	@Bean
	Listed listed(ApiClient apiClient, @Value("${lists}") List<String> plurals) throws ApiException {
		List<String> listed = new ArrayList<>();
		for (String plural : plurals) {
			new DynamicKubernetesApi(GROUP, "v1", plural, apiClient).list().throwsApiException();
			listed.add(plural);
		}
		return new Listed(listed);
	}

	/**
	 * What was listed at startup.
	 *
	 * @param plurals the resources
	 */
	record Listed(List<String> plurals) {
	}

}
