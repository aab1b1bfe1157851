package dev.kubereconciler.sample.mirror;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Beans of the configmap-mirror controller.
 */
@Configuration(proxyBeanMethods = false)
public class MirrorConfiguration {

	@Bean
	CoreV1Api coreV1Api(ApiClient apiClient) {
		return new CoreV1Api(apiClient);
	}

}
