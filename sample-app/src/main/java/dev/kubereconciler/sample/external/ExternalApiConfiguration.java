package dev.kubereconciler.sample.external;

import java.net.URI;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.sample.SampleProperties;
import dev.kubereconciler.time.Ticker;

/**
 * Configuration of the simulated external API client.
 */
@Configuration(proxyBeanMethods = false)
public class ExternalApiConfiguration {

	@Bean
	ExternalWidgetApi externalWidgetApi(SampleProperties properties, ObjectProvider<MeterRegistry> meterRegistry) {
		URI storeUrl = properties.getExternalApi().getStoreUrl();
		ExternalWidgetStore store = (storeUrl != null) ? new RemoteExternalWidgetStore(storeUrl)
				: new InMemoryExternalWidgetStore();
		return new ExternalWidgetApi(properties.getExternalApi(), meterRegistry.getIfAvailable(), Ticker.system(),
				store);
	}

}
