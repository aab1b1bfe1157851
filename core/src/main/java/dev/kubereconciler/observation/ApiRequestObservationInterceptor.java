package dev.kubereconciler.observation;

import java.io.IOException;
import java.util.Objects;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * An OkHttp interceptor for a client-java {@code ApiClient} that observes each request
 * made while another observation is current on the calling thread, such as a reconcile,
 * as a child of that observation. Requests made outside any observation (the informers'
 * lists and watches, on their own threads) pass unobserved, so that a trace is one
 * reconcile and not a watch that lasts minutes.
 *
 * <p>
 * client-java's synchronous calls run the interceptors on the calling thread, where the
 * worker made the reconcile's observation current; an asynchronous call runs them on
 * OkHttp's dispatcher threads, where it is observed only if the caller propagated the
 * observation there.
 */
public final class ApiRequestObservationInterceptor implements Interceptor {

	private static final ApiRequestObservationConvention DEFAULT_CONVENTION = new DefaultApiRequestObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable ApiRequestObservationConvention convention;

	/**
	 * Create the interceptor.
	 * @param registry the registry of the observations this one nests in
	 * @param convention the convention to use, or {@code null} for the
	 * {@link DefaultApiRequestObservationConvention}
	 */
	public ApiRequestObservationInterceptor(ObservationRegistry registry,
			@Nullable ApiRequestObservationConvention convention) {
		this.registry = Objects.requireNonNull(registry, "registry must not be null");
		this.convention = convention;
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Observation parent = this.registry.getCurrentObservation();
		if (parent == null) {
			return chain.proceed(chain.request());
		}
		ApiRequestObservationContext context = new ApiRequestObservationContext(chain.request());
		Observation observation = ApiRequestObservationDocumentation.API_REQUEST
			.observation(this.convention, DEFAULT_CONVENTION, () -> context, this.registry)
			.parentObservation(parent)
			.start();
		try (Observation.Scope scope = observation.openScope()) {
			// the tracing bridge's propagator wrote its headers, if any, on start
			Response response = chain.proceed(Objects.requireNonNull(context.getCarrier()).build());
			context.setResponse(response);
			return response;
		}
		catch (IOException | RuntimeException | Error ex) {
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

}
