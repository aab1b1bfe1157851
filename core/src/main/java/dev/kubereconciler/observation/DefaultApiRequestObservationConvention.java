package dev.kubereconciler.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import okhttp3.Response;

import dev.kubereconciler.observation.ApiRequestObservationDocumentation.HighCardinalityKeyNames;
import dev.kubereconciler.observation.ApiRequestObservationDocumentation.LowCardinalityKeyNames;

/**
 * The default {@link ApiRequestObservationConvention}: the observation
 * {@code kube.reconciler.api.requests}, named {@code <verb> <resource>} in a trace (for
 * example {@code patch configmaps/status}).
 */
public class DefaultApiRequestObservationConvention implements ApiRequestObservationConvention {

	/** The observation's name. */
	public static final String NAME = "kube.reconciler.api.requests";

	private static final String NONE = "none";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(ApiRequestObservationContext context) {
		String resource = context.getResource().isEmpty() ? context.getRequest().url().encodedPath()
				: context.getResource();
		return context.getVerb() + " " + resource
				+ (context.getSubresource().isEmpty() ? "" : "/" + context.getSubresource());
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ApiRequestObservationContext context) {
		Response response = context.getResponse();
		return KeyValues.of(KeyValue.of(LowCardinalityKeyNames.METHOD, context.getMethod()),
				KeyValue.of(LowCardinalityKeyNames.VERB, context.getVerb()),
				KeyValue.of(LowCardinalityKeyNames.RESOURCE, orNone(context.getResource())),
				KeyValue.of(LowCardinalityKeyNames.SUBRESOURCE, orNone(context.getSubresource())),
				KeyValue.of(LowCardinalityKeyNames.STATUS,
						(response != null) ? Integer.toString(response.code()) : "CLIENT_ERROR"));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ApiRequestObservationContext context) {
		return KeyValues.of(KeyValue.of(HighCardinalityKeyNames.NAMESPACE, context.getNamespace()),
				KeyValue.of(HighCardinalityKeyNames.NAME, context.getObjectName()),
				KeyValue.of(HighCardinalityKeyNames.URL_PATH, context.getRequest().url().encodedPath()));
	}

	private static String orNone(String value) {
		return value.isEmpty() ? NONE : value;
	}

}
