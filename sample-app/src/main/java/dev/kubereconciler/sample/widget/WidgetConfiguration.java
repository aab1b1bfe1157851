package dev.kubereconciler.sample.widget;

import java.util.Set;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.manifests.RbacCustomizer;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sample.SampleProperties;
import dev.kubereconciler.sample.external.ExternalWidgetApi;
import dev.kubereconciler.source.PerObjectPollingSource;
import dev.kubereconciler.source.Source;

/**
 * Beans of the widget controller: its dependent ConfigMap, the typed API, the RBAC of its
 * finalizer and status writes, and the controller's own rate limiter.
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

	/**
	 * The ConfigMap each widget owns, from which workloads read its color and size. The
	 * widget controller takes it by its type, as the only controller of widgets: it
	 * applies it before each reconcile of the widget, only when it differs, and garbage
	 * collection deletes it with the widget.
	 * @return the dependent
	 */
	@Bean
	Dependent<Widget, V1ConfigMap> widgetSettings() {
		return Dependent.of("settings", V1ConfigMap.class,
				(widget, context) -> new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-widget"))
					.putDataItem("color", widget.getSpec().color())
					.putDataItem("size", String.valueOf(widget.getSpec().size())));
	}

	@Bean
	GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgetApi(ApiClient apiClient) {
		return CustomResourceList.api(Widget.class, apiClient);
	}

	// Every widget retry calls a paid API: back off per widget from retry.base-delay, and
	// never retry more than retry.qps widgets per second, however many fail at once.
	@Bean
	RateLimiter<Request> widgetRateLimiter(SampleProperties properties) {
		SampleProperties.Retry retry = properties.getWidgets().getRetry();
		return RateLimiters.maxOf(RateLimiters.exponential(retry.getBaseDelay(), retry.getMaxDelay()),
				RateLimiters.bucket(retry.getQps(), retry.getBurst()));
	}

	/**
	 * Notices a widget that the external API lost: every verify period it looks up each
	 * provisioned widget, and reconciles the widgets whose answer changed, so that a
	 * ready widget is not requeued only to be looked at.
	 * @param externalApi the external API
	 * @param properties the verify period
	 * @return the source
	 */
	@Bean
	PerObjectPollingSource<Widget> externalWidgets(ExternalWidgetApi externalApi, SampleProperties properties) {
		return Source.perObject("external-widgets", Widget.class, properties.getWidgets().getVerifyPeriod(),
				(widget) -> lookUp(externalApi, widget));
	}

	// present or lost, by id: a widget provisioned again and lost again between two polls
	// changes its answer; none until it has an id
	static @Nullable ExternalLookup lookUp(ExternalWidgetApi externalApi, Widget widget) {
		String id = (widget.getStatus() != null) ? widget.getStatus().externalId() : null;
		return (id != null) ? new ExternalLookup(id, externalApi.describe(id).isPresent()) : null;
	}

	/**
	 * What the {@code externalWidgets} source last saw of a widget's external resource.
	 *
	 * @param externalId the id the widget's status names
	 * @param present whether the external API holds it
	 */
	record ExternalLookup(String externalId, boolean present) {

	}

}
