package dev.kubereconciler.sample.widget;

import java.time.Duration;
import java.util.Set;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.manifests.RbacCustomizer;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sample.SampleProperties;

/**
 * Beans of the widget controller: the typed API, the CRD installer and the controller's
 * own rate limiter.
 */
@Configuration(proxyBeanMethods = false)
public class WidgetConfiguration {

	/**
	 * The writes the reconciler makes on widgets, which the watch alone does not imply:
	 * their finalizers and their status.
	 * @return the customizer
	 */
	@Bean
	RbacCustomizer widgetRbac() {
		ResourceType widgets = ResourceType.of(Widget.class);
		return (rules) -> rules.finalizers(widgets, Set.of()).status(widgets, Set.of());
	}

	@Bean
	GenericKubernetesApi<Widget, WidgetList> widgetApi(ApiClient apiClient) {
		return new GenericKubernetesApi<>(Widget.class, WidgetList.class, Widget.GROUP, Widget.VERSION, Widget.PLURAL,
				apiClient);
	}

	// a bean rather than a property: it runs while the context starts, before the
	// controllers list widgets, so that their cache can sync
	@Bean
	@ConditionalOnBooleanProperty("sample.widgets.install-crd")
	InitializingBean widgetCrdInstaller(ApiClient apiClient) {
		return () -> WidgetCrd.install(apiClient, Duration.ofSeconds(30));
	}

	// Every widget retry calls a paid API: back off per widget from retry.base-delay, and
	// never retry more than retry.qps widgets per second, however many fail at once.
	@Bean
	RateLimiter<Request> widgetRateLimiter(SampleProperties properties) {
		SampleProperties.Retry retry = properties.getWidgets().getRetry();
		return RateLimiters.maxOf(RateLimiters.exponential(retry.getBaseDelay(), retry.getMaxDelay()),
				RateLimiters.bucket(retry.getQps(), retry.getBurst()));
	}

}
