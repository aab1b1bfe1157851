package dev.kubereconciler.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

import dev.kubereconciler.metrics.RestClientMetrics;

/**
 * Adds client-go's REST client meters to every {@link ApiClient} bean, the application's
 * own included, so that each request the manager sends is counted.
 */
final class RestClientMetricsPostProcessor implements BeanPostProcessor {

	private final ObjectProvider<MeterRegistry> registry;

	RestClientMetricsPostProcessor(ObjectProvider<MeterRegistry> registry) {
		this.registry = registry;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ApiClient client) {
			// the registry is looked up only now: a post-processor that needed it early
			// would make the registry miss the other post-processors
			MeterRegistry registry = this.registry.getIfAvailable();
			if (registry != null) {
				RestClientMetrics.instrument(client, registry);
			}
		}
		return bean;
	}

}
