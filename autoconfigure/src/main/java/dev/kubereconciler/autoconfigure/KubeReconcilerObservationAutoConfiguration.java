package dev.kubereconciler.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.ObservationRegistry;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.observation.ApiRequestObservationConvention;
import dev.kubereconciler.observation.ApiRequestObservationInterceptor;
import dev.kubereconciler.observation.ReconcileObservationConvention;
import dev.kubereconciler.observation.ReconcileObservations;

/**
 * Auto-configuration that observes each reconcile, and the Kubernetes API requests it
 * makes as its children, in Spring Boot's {@link ObservationRegistry}: with a tracing
 * bridge on the class path, each reconcile is a trace.
 */
@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({ ObservationRegistry.class, ApiClient.class })
@ConditionalOnBean(ObservationRegistry.class)
public final class KubeReconcilerObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ReconcileObservations reconcileObservations(ObservationRegistry registry,
			ObjectProvider<ReconcileObservationConvention> convention) {
		return ReconcileObservations.of(registry).withConvention(convention.getIfUnique());
	}

	// static, as a post-processor is made before the other beans; the registry and the
	// convention are looked up only when an ApiClient bean is initialised
	@Bean
	static BeanPostProcessor kubeReconcilerApiRequestObservations(ObjectProvider<ObservationRegistry> registry,
			ObjectProvider<ApiRequestObservationConvention> convention) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof ApiClient apiClient) {
					OkHttpClient.Builder builder = apiClient.getHttpClient().newBuilder();
					// first, so that the observation spans what the other interceptors do
					builder.interceptors()
						.add(0, new ApiRequestObservationInterceptor(registry.getObject(), convention.getIfUnique()));
					apiClient.setHttpClient(builder.build());
				}
				return bean;
			}

		};
	}

	/**
	 * Help texts for the meters that Spring Boot's meter handler makes of our
	 * observations: without one, Prometheus' exposition carries no {@code # HELP} line
	 * and {@code promtool check metrics} reports each of them.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterFilter.class)
	static class ObservationMeterDescriptions {

		@Bean
		MeterFilter kubeReconcilerObservationMeterDescriptions() {
			return new MeterFilter() {

				@Override
				public Meter.Id map(Meter.Id id) {
					String description = describe(id.getName());
					if (id.getDescription() != null || description == null) {
						return id;
					}
					return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(), description,
							id.getType());
				}

			};
		}

		static @Nullable String describe(String name) {
			return switch (name) {
				case "kube.reconciler.reconcile" ->
					"Reconciles, observed: their count and time by controller, result and trigger";
				case "kube.reconciler.reconcile.active" -> "Reconciles in progress, observed";
				case "kube.reconciler.api.requests" ->
					"Kubernetes API requests made by reconciles, observed: their count and time by verb, resource and status";
				case "kube.reconciler.api.requests.active" ->
					"Kubernetes API requests of reconciles in progress, observed";
				default -> null;
			};
		}

	}

}
