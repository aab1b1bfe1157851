package dev.kubereconciler.snippets;

import java.time.Clock;
import java.util.List;

import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.reconcile.Conditions;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.UpdateFilter;
import dev.kubereconciler.reconcile.UpdatePredicate;
import dev.kubereconciler.reconcile.Watch;
import dev.kubereconciler.sample.widget.Widget;

/**
 * Snippets of {@code docs/operators.md}: a controller defined in code that applies an
 * owned ConfigMap, and a condition set with apimachinery's rules.
 */
final class OperatorSnippets {

	private OperatorSnippets() {
	}

	static ControllerDefinition widgetSettings() {
		return ControllerDefinition.builder(Widget.class)
			.named("widget-settings")
			.owns(V1ConfigMap.class)
			.finalizer("example.com/settings", (widget, context) -> Result.done())
			.reconcile((widget, context) -> {
				V1ConfigMap settings = new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-settings")
						.namespace(widget.getMetadata().getNamespace()))
					.putDataItem("color", widget.getSpec().color());
				context.setControllerReference(widget, settings);
				context.apply(settings); // field manager: widget-settings
				// read from an informer index
				List<V1ConfigMap> owned = context.owned(V1ConfigMap.class, widget);
				return owned.isEmpty() ? Result.requeue() : Result.done();
			});
	}

	static boolean markReady(List<V1Condition> conditions, Widget widget, Clock clock) {
		V1Condition ready = new V1Condition().type("Ready")
			.status("True")
			.reason("Provisioned")
			.message("the external widget exists");
		// lastTransitionTime moves only when the status changes
		return Conditions.set(conditions, ready, widget.getMetadata().getGeneration(), clock);
	}

	static void recordEvents(EventRecorder recorder, Widget widget) {
		recorder.warning(widget, "ProvisionFailed", "Provision", "the external API answered 503");
		recorder.normal(widget, "Provisioned", "Provision", "external id w-42");
	}

	/**
	 * Event filters and a mapped watch on the annotation, with their beans.
	 */
	static class FilteredWidgets {

		@Reconciler(name = "widget", watches = Widget.class, updateFilters = UpdateFilter.GENERATION_CHANGED,
				updateFilterBeans = "notPaused", maps = @Watch(type = V1Secret.class, mapper = "secretToWidgets"))
		Result reconcile(Request request) {
			return Result.done();
		}

		@Bean
		UpdatePredicate notPaused() {
			return (oldObject, newObject) -> newObject.getMetadata().getAnnotations() == null
					|| !newObject.getMetadata().getAnnotations().containsKey("example.com/paused");
		}

		@Bean
		RequestMapper<V1Secret> secretToWidgets(ObjectProvider<ControllerRegistry> controllers) {
			// widgets name their Secret in a label; read the cache, never the API server
			return (secret) -> controllers.getObject()
				.lister(Widget.class)
				.namespace(secret.getMetadata().getNamespace())
				.list()
				.stream()
				.filter((widget) -> secret.getMetadata()
					.getName()
					.equals(widget.getMetadata().getLabels().get("secret")))
				.map((widget) -> new Request(widget.getMetadata().getNamespace(), widget.getMetadata().getName()))
				.toList();
		}

	}

}
