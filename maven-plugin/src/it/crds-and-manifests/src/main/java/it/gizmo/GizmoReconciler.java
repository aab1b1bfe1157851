package it.gizmo;

import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;

@Component
public class GizmoReconciler {

	@Reconciler
	public Result reconcile(Gizmo gizmo, ReconcileContext<Gizmo> context) {
		return Result.done();
	}

}
