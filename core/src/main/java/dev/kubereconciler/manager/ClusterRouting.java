package dev.kubereconciler.manager;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.internal.context.CauseAwareReconciler;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;

/**
 * A controller's reconcile function across clusters: a local request goes to the function
 * bound to the manager's own caches, a request of an engaged cluster to the one bound to
 * that cluster's, and a request of a cluster no longer engaged is dropped, as its objects
 * went with it.
 */
final class ClusterRouting implements CauseAwareReconciler {

	private final String controller;

	private final @Nullable ReconcileFunction local;

	private final FleetClusters fleet;

	private ClusterRouting(String controller, @Nullable ReconcileFunction local, FleetClusters fleet) {
		this.controller = controller;
		this.local = local;
		this.fleet = fleet;
	}

	/**
	 * Return what a controller's workers call.
	 * @param controller the controller's name
	 * @param local its function on the local cluster, or {@code null} when it runs on the
	 * fleet only
	 * @param fleet the engaged clusters, or {@code null} when it runs on the local
	 * cluster only
	 * @return the local function itself when it runs on the local cluster only
	 */
	static ReconcileFunction of(String controller, @Nullable ReconcileFunction local, @Nullable FleetClusters fleet) {
		if (fleet == null && local != null) {
			return local;
		}
		if (fleet == null) {
			throw new IllegalArgumentException("Controller '" + controller + "' runs on no cluster");
		}
		return new ClusterRouting(controller, local, fleet);
	}

	@Override
	public Result reconcile(Request request, Trigger cause) throws Exception {
		ReconcileFunction function = request.isLocal() ? this.local
				: this.fleet.reconciler(request.cluster(), this.controller);
		if (function == null) {
			return Result.done();
		}
		return (function instanceof CauseAwareReconciler aware) ? aware.reconcile(request, cause)
				: function.reconcile(request);
	}

}
