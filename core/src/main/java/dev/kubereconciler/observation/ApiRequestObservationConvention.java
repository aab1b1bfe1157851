package dev.kubereconciler.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names the observation of a Kubernetes API request and its key values; implement it, or
 * extend {@link DefaultApiRequestObservationConvention}, and declare it as a bean to
 * replace the default.
 */
public interface ApiRequestObservationConvention extends ObservationConvention<ApiRequestObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ApiRequestObservationContext;
	}

}
