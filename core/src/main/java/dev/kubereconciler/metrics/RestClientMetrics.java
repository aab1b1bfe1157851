package dev.kubereconciler.metrics;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.jspecify.annotations.Nullable;

/**
 * client-go's REST client meters for the requests of one {@link ApiClient}, with the
 * names, labels, help texts and buckets of Kubernetes' component-base:
 * {@code rest_client_requests_total{code,method,host}},
 * {@code rest_client_request_duration_seconds{verb,host}},
 * {@code rest_client_request_size_bytes{verb,host}} and
 * {@code rest_client_response_size_bytes{verb,host}}. An OkHttp interceptor: add it with
 * {@link #instrument(ApiClient, MeterRegistry)}.
 */
public final class RestClientMetrics implements Interceptor {

	/** The code of a request that got no response, as client-go counts it. */
	public static final String ERROR_CODE = "<error>";

	static final Duration[] DURATION_BUCKETS = { Duration.ofMillis(5), Duration.ofMillis(25), Duration.ofMillis(100),
			Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
			Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(15), Duration.ofSeconds(30),
			Duration.ofSeconds(60) };

	static final double[] SIZE_BUCKETS = { 64, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216 };

	private final MeterRegistry registry;

	private final Clock clock;

	private final Map<List<String>, Counter> requests = new ConcurrentHashMap<>();

	private final Map<List<String>, VerbMeters> verbs = new ConcurrentHashMap<>();

	/**
	 * Create the meters of one client; they are registered with each first request of a
	 * code, method and host.
	 * @param registry the registry, whose clock times the requests
	 */
	public RestClientMetrics(MeterRegistry registry) {
		this.registry = registry;
		this.clock = registry.config().clock();
	}

	/**
	 * Measure every request a client sends from now on, unless its HTTP client measures
	 * them into this registry already.
	 * @param client the client; its HTTP client is replaced by one with the interceptor
	 * @param registry the registry
	 * @return the same client
	 */
	public static ApiClient instrument(ApiClient client, MeterRegistry registry) {
		OkHttpClient httpClient = client.getHttpClient();
		for (Interceptor interceptor : httpClient.interceptors()) {
			if (interceptor instanceof RestClientMetrics metrics && metrics.registry == registry) {
				return client;
			}
		}
		client.setHttpClient(httpClient.newBuilder().addInterceptor(new RestClientMetrics(registry)).build());
		return client;
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Request request = chain.request();
		String method = request.method();
		String host = host(request.url());
		// client-go counts a watch when it opens, and times only the other requests
		boolean watch = isWatch(request.url());
		long start = this.clock.monotonicTime();
		Response response;
		try {
			response = chain.proceed(request);
		}
		catch (IOException | RuntimeException ex) {
			requests(ERROR_CODE, method, host).increment();
			if (!watch) {
				VerbMeters meters = verb(method, host);
				meters.requestSize(request.body());
				meters.duration.record(this.clock.monotonicTime() - start, TimeUnit.NANOSECONDS);
			}
			throw ex;
		}
		requests(Integer.toString(response.code()), method, host).increment();
		if (watch) {
			return response;
		}
		VerbMeters meters = verb(method, host);
		meters.requestSize(request.body());
		// client-go's duration includes reading the body, and its response size is
		// the body read: both are observed once the body is read to its end or closed
		boolean success = response.code() >= 200 && response.code() <= 206;
		LongConsumer done = (size) -> {
			meters.duration.record(this.clock.monotonicTime() - start, TimeUnit.NANOSECONDS);
			if (success || size > 0) {
				meters.responseSize.record(size);
			}
		};
		ResponseBody body = response.body();
		if (body == null) {
			done.accept(0);
			return response;
		}
		return response.newBuilder().body(new MeteredBody(body, done)).build();
	}

	private Counter requests(String code, String method, String host) {
		return this.requests.computeIfAbsent(List.of(code, method, host),
				(key) -> Counter.builder("rest.client.requests")
					.description("Number of HTTP requests, partitioned by status code, method, and host.")
					.tag("code", code)
					.tag("method", method)
					.tag("host", host)
					.register(this.registry));
	}

	private VerbMeters verb(String verb, String host) {
		return this.verbs.computeIfAbsent(List.of(verb, host), (key) -> new VerbMeters(this.registry, verb, host));
	}

	/**
	 * Return the host label of a request: the host and port of the API server's URL, as
	 * Go's {@code url.URL.Host} writes them.
	 * @param url the request's URL
	 * @return {@code host:port}, with an IPv6 address in brackets
	 */
	static String host(HttpUrl url) {
		String host = url.host();
		return ((host.indexOf(':') >= 0) ? "[" + host + "]" : host) + ":" + url.port();
	}

	private static boolean isWatch(HttpUrl url) {
		String watch = url.queryParameter("watch");
		return "true".equals(watch) || "1".equals(watch);
	}

	/**
	 * The duration and size histograms of one verb and host.
	 */
	private static final class VerbMeters {

		final Timer duration;

		final DistributionSummary requestSize;

		final DistributionSummary responseSize;

		VerbMeters(MeterRegistry registry, String verb, String host) {
			this.duration = Timer.builder("rest.client.request.duration")
				.description("Request latency in seconds. Broken down by verb, and host.")
				.tag("verb", verb)
				.tag("host", host)
				.serviceLevelObjectives(DURATION_BUCKETS)
				.register(registry);
			this.requestSize = size(registry, "rest.client.request.size", "Request size in bytes", verb, host);
			this.responseSize = size(registry, "rest.client.response.size", "Response size in bytes", verb, host);
		}

		private static DistributionSummary size(MeterRegistry registry, String name, String what, String verb,
				String host) {
			return DistributionSummary.builder(name)
				.description(what + ". Broken down by verb and host.")
				.baseUnit("bytes")
				.tag("verb", verb)
				.tag("host", host)
				.serviceLevelObjectives(SIZE_BUCKETS)
				.register(registry);
		}

		void requestSize(@Nullable RequestBody body) {
			// client-go observes a request whose length is known, a request without a
			// body as 0
			long length;
			try {
				length = (body != null) ? body.contentLength() : 0;
			}
			catch (IOException ex) {
				return;
			}
			if (length >= 0) {
				this.requestSize.record(length);
			}
		}

	}

	/**
	 * A response body that reports, once, how many bytes were read when it is read to its
	 * end, fails or is closed.
	 */
	private static final class MeteredBody extends ResponseBody {

		private final ResponseBody body;

		private final BufferedSource source;

		MeteredBody(ResponseBody body, LongConsumer done) {
			this.body = body;
			this.source = Okio.buffer(new CountingSource(body.source(), done));
		}

		@Override
		public @Nullable MediaType contentType() {
			return this.body.contentType();
		}

		@Override
		public long contentLength() {
			return this.body.contentLength();
		}

		@Override
		public BufferedSource source() {
			return this.source;
		}

	}

	private static final class CountingSource extends ForwardingSource {

		private final LongConsumer done;

		private long read;

		private boolean reported;

		CountingSource(okio.Source delegate, LongConsumer done) {
			super(delegate);
			this.done = done;
		}

		@Override
		public long read(Buffer sink, long byteCount) throws IOException {
			long read;
			try {
				read = super.read(sink, byteCount);
			}
			catch (IOException | RuntimeException ex) {
				report();
				throw ex;
			}
			if (read == -1) {
				report();
			}
			else {
				this.read += read;
			}
			return read;
		}

		@Override
		public void close() throws IOException {
			try {
				super.close();
			}
			finally {
				report();
			}
		}

		private void report() {
			if (!this.reported) {
				this.reported = true;
				this.done.accept(this.read);
			}
		}

	}

}
