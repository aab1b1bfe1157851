package com.example.greeting;

import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.Conditions;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;

/**
 * Publishes each greeting's message in a ConfigMap it owns, reports {@code Ready} in the
 * greeting's status, and says farewell through an Event before a greeting goes away.
 * Nothing here deletes the ConfigMap: its owner reference does, through the cluster's
 * garbage collector.
 */
@Component
public class GreetingReconciler implements Cleaner<Greeting> {

	static final String FINALIZER = "example.com/farewell";

	@Reconciler(owns = V1ConfigMap.class, finalizer = FINALIZER)
	public Result reconcile(Greeting greeting, ReconcileContext<Greeting> context) throws Exception {
		V1ConfigMap published = new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(configMapName(greeting)).namespace(greeting.getMetadata().getNamespace()))
			.putDataItem("message", greeting.getSpec().getMessage());
		context.setControllerReference(greeting, published);
		context.apply(published);
		Greeting.Status status = (greeting.getStatus() != null) ? greeting.getStatus() : new Greeting.Status();
		Long generation = greeting.getMetadata().getGeneration();
		Conditions.set(status.getConditions(),
				new V1Condition().type("Ready")
					.status("True")
					.reason("Published")
					.message("ConfigMap " + published.getMetadata().getName()),
				generation);
		status.setObservedGeneration(generation);
		greeting.setStatus(status);
		context.updateStatus(greeting);
		return Result.done();
	}

	@Override
	public Result cleanup(Greeting greeting, ReconcileContext<Greeting> context) throws Exception {
		context.events().normal(greeting, "Farewell", "Cleanup", "goodbye, " + greeting.getSpec().getMessage());
		return Result.done();
	}

	static String configMapName(Greeting greeting) {
		return greeting.getMetadata().getName() + "-greeting";
	}

}
