package ${package};

import io.kubernetes.client.openapi.models.V1Condition;

import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.Conditions;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;

/**
 * Reports in each {@link ${kind}}'s status whether its ConfigMap, applied by the
 * dependent of {@link ${kind}Configuration}, holds its settings, and records an Event
 * when a ${kind} is deleted, before its finalizer is removed.
 */
@Component
public class ${kind}Reconciler implements Cleaner<${kind}> {

	/** The controller's name, which its metrics, Events and properties carry. */
	static final String NAME = "${kind.toLowerCase()}";

	/** Holds a deleted ${kind} until {@code cleanup} is done with it. */
	static final String FINALIZER = ${kind}.GROUP + "/finalizer";

	@Reconciler(name = NAME, finalizer = FINALIZER)
	public Result reconcile(${kind} resource, ReconcileContext<${kind}> context) throws Exception {
		// the dependents were applied before this runs; one not ready requeues the ${kind}
		boolean ready = context.dependents().ready();
		${kind}.Status status = (resource.getStatus() != null) ? resource.getStatus() : new ${kind}.Status();
		Long generation = resource.getMetadata().getGeneration();
		Conditions.set(status.getConditions(),
				new V1Condition().type("Ready")
					.status(ready ? "True" : "False")
					.reason(ready ? "SettingsApplied" : "Waiting")
					.message(ready ? "ConfigMap " + ${kind}Configuration.configMapName(resource)
							: context.dependents().message()),
				generation);
		status.setObservedGeneration(generation);
		resource.setStatus(status);
		context.updateStatus(resource);
		return Result.done();
	}

	@Override
	public Result cleanup(${kind} resource, ReconcileContext<${kind}> context) throws Exception {
		// the ConfigMap goes with the ${kind}, by its owner reference; release here what no
		// owner reference reaches, such as a resource outside the cluster
		context.events().normal(resource, "CleanedUp", "Cleanup", "released what the ${kind} held");
		return Result.done();
	}

}
