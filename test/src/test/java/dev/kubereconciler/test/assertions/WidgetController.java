package dev.kubereconciler.test.assertions;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Condition;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.events.ApiEventSink;
import dev.kubereconciler.events.EventRecorderListener;
import dev.kubereconciler.events.EventRecorders;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Conditions;
import dev.kubereconciler.reconcile.Result;

/**
 * The operator the assertions are tried on: it copies {@code spec.replicas} to its
 * status, sets {@code Ready} (false for no replicas), records a {@code Sized} Event for
 * each change, and keeps a finalizer while the object has the label {@code hold=true}.
 */
final class WidgetController {

	static final String NAME = "widgets";

	static final String FINALIZER = "assertions.kubereconciler.dev/cleanup";

	private WidgetController() {
	}

	static ControllerManager start(ApiClient client, String namespace, ReconcileRecorder recorder) {
		EventRecorders events = new EventRecorders(new ApiEventSink(client), Runnable::run, Clock.systemUTC(),
				"assertions-test", EventRecorders.DEFAULT_BUFFER_CAPACITY, EventRecorderListener.NONE);
		ControllerManager manager = ControllerManager.builder(client)
			.listener(recorder)
			.eventRecorders(events::forController)
			.controller(ControllerDefinition.builder(Widget.class)
				.named(NAME)
				.namespaces(namespace)
				.finalizer(FINALIZER, (widget, context) -> isHeld(widget.getMetadata().getLabels())
						// a requeue keeps the finalizer; removing the label reconciles
						// sooner
						? Result.requeueAfter(Duration.ofMinutes(1)) : Result.done())
				.reconcile((widget, context) -> {
					Widget.Status status = (widget.getStatus() != null) ? widget.getStatus() : new Widget.Status();
					int replicas = widget.getSpec().getReplicas();
					boolean changed = !Integer.valueOf(replicas).equals(status.replicas);
					status.replicas = replicas;
					V1Condition ready = (replicas > 0)
							? new V1Condition().type("Ready").status("True").reason("Sized").message("all set")
							: new V1Condition().type("Ready")
								.status("False")
								.reason("NoReplicas")
								.message("spec.replicas is 0");
					changed |= Conditions.set(status.getConditions(), ready, widget.getMetadata().getGeneration());
					if (changed) {
						widget.setStatus(status);
						context.updateStatus(widget);
						context.events().normal(widget, "Sized", "Size", replicas + " replicas");
					}
					return Result.done();
				}))
			.build();
		manager.start();
		return manager;
	}

	private static boolean isHeld(Map<String, String> labels) {
		return labels != null && "true".equals(labels.get("hold"));
	}

}
