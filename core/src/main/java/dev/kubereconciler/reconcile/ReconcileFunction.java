package dev.kubereconciler.reconcile;

/**
 * The reconcile logic of a controller: bring the object named by the request to its
 * desired state.
 *
 * <p>
 * Any exception is retried through the controller's rate limiter, except a
 * {@link TerminalReconcileException}, which is counted and not retried.
 */
@FunctionalInterface
public interface ReconcileFunction {

	/**
	 * Reconcile the object named by the request.
	 * @param request the namespace and name of the object
	 * @return what to do next; {@code null} is treated as an error
	 * @throws Exception any failure, retried through the rate limiter
	 */
	Result reconcile(Request request) throws Exception;

}
