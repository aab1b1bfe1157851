package dev.kubereconciler.snippets;

import java.time.Clock;
import java.util.List;

import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.controller.ContextReconciler;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Conditions;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sample.widget.Widget;

/**
 * Snippets of {@code docs/operators.md}: a controller defined in code that applies an
 * owned ConfigMap, and a condition set with apimachinery's rules.
 */
final class OperatorSnippets {

	private OperatorSnippets() {
	}

	static ControllerDefinition widgetSettings() {
		return ControllerDefinition.builder("widget-settings", Widget.class)
			.owns(V1ConfigMap.class)
			.reconciler(ContextReconciler.of(Widget.class, (widget, context) -> {
				V1ConfigMap settings = new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-settings")
						.namespace(widget.getMetadata().getNamespace()))
					.putDataItem("color", widget.getSpec().getColor());
				context.setControllerReference(widget, settings);
				context.apply(settings); // field manager: widget-settings
				List<V1ConfigMap> owned = context.owned(V1ConfigMap.class, widget); // from
																					// an
																					// index
				return owned.isEmpty() ? Result.requeue() : Result.done();
			}).withFinalizer("example.com/settings", (widget, context) -> Result.done()))
			.build();
	}

	static boolean markReady(List<V1Condition> conditions, Widget widget, Clock clock) {
		V1Condition ready = new V1Condition().type("Ready")
			.status("True")
			.reason("Provisioned")
			.message("the external widget exists");
		// lastTransitionTime moves only when the status changes
		return Conditions.set(conditions, ready, widget.getMetadata().getGeneration(), clock);
	}

}
