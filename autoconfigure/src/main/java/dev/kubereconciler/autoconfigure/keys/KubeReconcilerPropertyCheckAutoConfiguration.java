package dev.kubereconciler.autoconfigure.keys;

import io.kubernetes.client.openapi.ApiClient;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the check that fails startup on a {@code kube-reconciler.*} key
 * that binds to nothing.
 */
@AutoConfiguration
@ConditionalOnClass(ApiClient.class)
@ConditionalOnProperty(prefix = "kube-reconciler", name = "enabled", matchIfMissing = true)
public final class KubeReconcilerPropertyCheckAutoConfiguration {

	// a post-processor, so that a misspelled key is named before any properties class
	// binds and fails on it with less to say
	@Bean
	static UnknownPropertyCheck kubeReconcilerUnknownPropertyCheck(Environment environment) {
		return new UnknownPropertyCheck(environment);
	}

}
