package dev.kubereconciler.test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * OkHttp interceptor that records every request an {@link ApiClient} sends, so that a
 * test can check each against the RBAC rules the application declares. Requests that
 * differ only in their object name or query are recorded once each, with the first name
 * seen; {@link #allRequests()} keeps every one.
 */
public final class ApiRequestRecorder implements Interceptor {

	private final Set<ApiRequest> requests = new LinkedHashSet<>();

	private final Set<String> seen = new LinkedHashSet<>();

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
		String key = parsed.verb() + " " + parsed.group() + " " + parsed.resource() + "/" + parsed.subresource() + " "
				+ parsed.namespace() + " " + (parsed.isResourceRequest() ? "" : parsed.path());
		synchronized (this) {
			if (this.seen.add(key)) {
				this.requests.add(parsed);
			}
			this.every.add(parsed);
		}
		return chain.proceed(request);
	}

	/**
	 * Return what was recorded so far.
	 * @return the distinct requests, in the order first seen
	 */
	public synchronized List<ApiRequest> requests() {
		return List.copyOf(this.requests);
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
