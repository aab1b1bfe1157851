package dev.kubereconciler.test.rbac;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * OkHttp interceptor that records every request an {@link ApiClient} sends, so that a
 * test can check each against the RBAC rules the application declares.
 * {@link #requests()} keeps every request that differs in anything the RBAC authorizer
 * decides on (verb, group, resource, subresource, namespace and name, or the path of a
 * non-resource request); {@link #allRequests()} keeps every one, repeats included.
 */
public final class ApiRequestRecorder implements Interceptor {

	// the requests themselves, without the sending thread, so that only exact repeats
	// are merged
	private final Map<ApiRequest, ApiRequest> requests = new LinkedHashMap<>();

	private final List<ApiRequest> every = new ArrayList<>();

	/**
	 * Record the requests of a client from now on, with a new recorder.
	 * @param client the client
	 * @return the client and its recorder
	 */
	public static Recorded record(ApiClient client) {
		ApiRequestRecorder recorder = new ApiRequestRecorder();
		return new Recorded(recorder.attach(client), recorder);
	}

	/**
	 * Record the requests of a client from now on.
	 * @param client the client
	 * @return the same client
	 */
	public ApiClient attach(ApiClient client) {
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
		return client;
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Request request = chain.request();
		ApiRequest parsed = ApiRequest.of(request.method(), request.url(), Thread.currentThread().getName());
		ApiRequest key = new ApiRequest(parsed.verb(), parsed.group(), parsed.resource(), parsed.subresource(),
				parsed.namespace(), parsed.name(), parsed.path(), "");
		synchronized (this) {
			this.requests.putIfAbsent(key, parsed);
			this.every.add(parsed);
		}
		return chain.proceed(request);
	}

	/**
	 * Return what was recorded so far.
	 * @return the distinct requests, each with the thread that sent it first, in the
	 * order first seen
	 */
	public synchronized List<ApiRequest> requests() {
		return List.copyOf(this.requests.values());
	}

	/**
	 * Return every request recorded so far, repeats included, for counting requests such
	 * as the writes of a steady state.
	 * @return the requests, in the order sent
	 */
	public synchronized List<ApiRequest> allRequests() {
		return List.copyOf(this.every);
	}

	/**
	 * A client and the recorder of its requests.
	 *
	 * @param client the client
	 * @param recorder the recorder
	 */
	public record Recorded(ApiClient client, ApiRequestRecorder recorder) {
	}

}
