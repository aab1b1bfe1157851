package dev.kubereconciler.metrics;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.webhook.server.WebhookListener;

/**
 * The webhook server's meters, with controller-runtime's names, help texts and buckets:
 * {@code controller_runtime_webhook_requests_total{webhook,code}},
 * {@code controller_runtime_webhook_latency_seconds{webhook}} and
 * {@code controller_runtime_webhook_requests_in_flight{webhook}}, where {@code webhook}
 * is the path. As in controller-runtime, only the paths of registered webhooks are
 * measured.
 */
public final class WebhookMetrics implements MeterBinder, WebhookListener {

	private final List<String> paths;

	private final Map<String, PathMeters> meters = new ConcurrentHashMap<>();

	private volatile @Nullable MeterRegistry registry;

	/**
	 * Create meters for each path on its first request.
	 */
	public WebhookMetrics() {
		this(List.of());
	}

	/**
	 * Create the meters of the given paths when bound, with the counts of codes
	 * {@code 200} and {@code 500} at zero, as controller-runtime does, so that a rate is
	 * defined before the first request; other paths get theirs on their first request.
	 * @param paths the paths of the webhooks the server serves
	 */
	public WebhookMetrics(Collection<String> paths) {
		this.paths = List.copyOf(paths);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
		this.meters.clear();
		this.paths.forEach((path) -> meters(registry, path));
	}

	@Override
	public void started(String path) {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			meters(registry, path).inFlight.incrementAndGet();
		}
	}

	@Override
	public void finished(String path, int code, long nanos) {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			PathMeters meters = meters(registry, path);
			// a request that started before the binder was bound was never counted in
			meters.inFlight.getAndUpdate((inFlight) -> Math.max(inFlight - 1, 0));
			meters.latency.record(nanos, TimeUnit.NANOSECONDS);
			meters.requests(code).increment();
		}
	}

	private PathMeters meters(MeterRegistry registry, String path) {
		PathMeters meters = this.meters.get(path);
		return (meters != null) ? meters
				: this.meters.computeIfAbsent(path, (webhook) -> new PathMeters(registry, webhook));
	}

	/**
	 * The meters of one webhook path.
	 */
	private static final class PathMeters {

		private final MeterRegistry registry;

		private final String path;

		private final Map<Integer, Counter> requests = new ConcurrentHashMap<>();

		final AtomicInteger inFlight = new AtomicInteger();

		final Timer latency;

		PathMeters(MeterRegistry registry, String path) {
			this.registry = registry;
			this.path = path;
			Gauge.builder("controller.runtime.webhook.requests.in.flight", this.inFlight, AtomicInteger::get)
				.description("Current number of admission requests being served.")
				.tag("webhook", path)
				.register(registry);
			// controller-runtime's buckets: ExponentialBuckets(10e-9, 10, 12), as the
			// work queue's
			this.latency = Timer.builder("controller.runtime.webhook.latency")
				.description("Histogram of the latency of processing admission requests")
				.tag("webhook", path)
				.serviceLevelObjectives(HistogramBuckets.forRegistry(registry, ControllerMeterSet.QUEUE_BUCKETS))
				.register(registry);
			requests(200);
			requests(500);
		}

		Counter requests(int code) {
			Counter counter = this.requests.get(code);
			return (counter != null) ? counter
					: this.requests.computeIfAbsent(code,
							(status) -> Counter.builder("controller.runtime.webhook.requests")
								.description("Total number of admission requests by HTTP status code.")
								.tag("webhook", this.path)
								.tag("code", Integer.toString(status))
								.register(this.registry));
		}

	}

}
