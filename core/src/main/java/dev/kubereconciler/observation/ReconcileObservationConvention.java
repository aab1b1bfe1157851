package dev.kubereconciler.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names a reconcile's observation and its key values; implement it, or extend
 * {@link DefaultReconcileObservationConvention}, and declare it as a bean to replace the
 * default.
 */
public interface ReconcileObservationConvention extends ObservationConvention<ReconcileObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ReconcileObservationContext;
	}

}
