package dev.kubereconciler.internal.dependent;

import java.time.Clock;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.internal.context.DependentsStep;
import dev.kubereconciler.internal.context.KubernetesWriter;
import dev.kubereconciler.internal.context.ReconcileSupport;
import dev.kubereconciler.reconcile.DependentsStatus;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.WriteFailedException;

/**
 * The dependents' step of one controller's reconcile: the dependents are applied before
 * the reconcile logic, which sees where they stand, and the {@code Ready} condition is
 * written last, on top of whatever status the logic wrote.
 *
 * @param <P> the primary type
 */
public final class DependentsReconciler<P extends KubernetesObject> implements DependentsStep<P> {

	private final Class<P> primaryType;

	private final DependentsRunner<P> runner;

	private final @Nullable ReadyCondition readyCondition;

	private DependentsReconciler(Dependents<P> dependents, Class<P> primaryType, boolean hasFinalizer,
			String controller, ReconcileSupport support, KubernetesWriter writer) {
		this.primaryType = primaryType;
		this.runner = new DependentsRunner<>(dependents, controller, support, writer, hasFinalizer);
		this.readyCondition = dependents.readyCondition() ? new ReadyCondition(writer, support, Clock.systemUTC())
				: null;
	}

	/**
	 * Make the dependents' step of a controller, as {@link DependentsStep.Factory} does.
	 * @param <P> the primary type
	 * @param dependents the declared dependents
	 * @param primaryType the primary type
	 * @param hasFinalizer whether the controller has a finalizer
	 * @param controller the controller's name
	 * @param support what the reconcile side shares
	 * @param writer the controller's writer
	 * @return the step
	 */
	public static <P extends KubernetesObject> DependentsStep<P> create(Dependents<P> dependents, Class<P> primaryType,
			boolean hasFinalizer, String controller, ReconcileSupport support, KubernetesWriter writer) {
		return new DependentsReconciler<>(dependents, primaryType, hasFinalizer, controller, support, writer);
	}

	/**
	 * Apply the dependents, then run the reconcile logic; the {@code Ready} condition is
	 * written last. A dependent that is not ready requeues the primary through the rate
	 * limiter unless the logic asked for a requeue itself; it is not an error.
	 */
	@Override
	public Result reconcile(P primary, ReconcileContext<P> context, Logic logic) throws Exception {
		DependentsStatus status;
		try {
			status = this.runner.run(primary, context);
		}
		catch (DependentFailure failure) {
			Exception cause = cause(failure);
			writeCondition(context, new DependentsStatus(false, failure.dependent(), failure.reason()), true, cause);
			throw cause;
		}
		Result result;
		try {
			result = logic.run(status);
		}
		catch (Exception ex) {
			writeCondition(context, status, false, ex);
			throw ex;
		}
		writeCondition(context, status, false, null);
		return (!status.ready() && result != null && result.isDone()) ? Result.requeue() : result;
	}

	private void writeCondition(ReconcileContext<P> context, DependentsStatus status, boolean failed,
			@Nullable Exception failure) throws Exception {
		ReadyCondition condition = this.readyCondition;
		if (condition == null) {
			return;
		}
		try {
			condition.write(context.request().key(), this.primaryType, status, failed);
		}
		catch (Exception ex) {
			if (failure == null) {
				throw ex;
			}
			failure.addSuppressed(ex);
		}
	}

	@Override
	public void cleanUp(P primary) throws Exception {
		try {
			this.runner.cleanUp(primary);
		}
		catch (DependentFailure failure) {
			throw cause(failure);
		}
	}

	@Override
	public void forget(String primaryKey) {
		this.runner.forget(primaryKey);
	}

	// a failed write says which dependent it was for
	private static Exception cause(DependentFailure failure) {
		Exception cause = (Exception) Objects.requireNonNull(failure.getCause());
		return (cause instanceof WriteFailedException failed) ? failed.ofDependent(failure.dependent()) : cause;
	}

}
