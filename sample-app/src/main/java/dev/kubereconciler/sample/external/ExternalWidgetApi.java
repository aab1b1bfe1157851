package dev.kubereconciler.sample.external;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.sample.SampleProperties;
import dev.kubereconciler.time.Ticker;

/**
 * The client of a simulated paid external API that provisions widgets: every call takes
 * time, may fail and is counted, because every call is billed.
 *
 * <p>
 * The API keeps its widgets in an {@link ExternalWidgetStore}: by default this process's
 * memory, so after a restart it has lost them all, as an external system can lose what a
 * controller created; or a store the replicas share. It always refuses {@code cursed}
 * widgets, fails the first calls for each {@code flaky} widget, and fails any call at
 * random with the configured rate.
 */
public class ExternalWidgetApi {

	/** The color that the API always refuses. */
	public static final String CURSED = "cursed";

	/** The color for which the API fails the first few calls. */
	public static final String FLAKY = "flaky";

	/**
	 * The name of the call counter; Prometheus shows
	 * {@code sample_external_api_calls_total}.
	 */
	public static final String CALLS_METER = "sample.external.api.calls";

	private static final int LOG_CAPACITY = 100_000;

	private final SampleProperties.ExternalApi properties;

	private final @Nullable MeterRegistry meterRegistry;

	private final CallLog log;

	private final ExternalWidgetStore widgets;

	private final Map<String, AtomicInteger> flakyCalls = new ConcurrentHashMap<>();

	private final Map<String, LongAdder> callsByKey = new ConcurrentHashMap<>();

	private final LongAdder calls = new LongAdder();

	private final LongAdder failures = new LongAdder();

	/**
	 * Create a client.
	 * @param properties the latency and failure settings
	 * @param meterRegistry where to count calls, or {@code null}
	 * @param ticker the source of time for call rates
	 */
	public ExternalWidgetApi(SampleProperties.ExternalApi properties, @Nullable MeterRegistry meterRegistry,
			Ticker ticker) {
		this(properties, meterRegistry, ticker, new InMemoryExternalWidgetStore());
	}

	/**
	 * Create a client whose widgets live in a given store.
	 * @param properties the latency and failure settings
	 * @param meterRegistry where to count calls, or {@code null}
	 * @param ticker the source of time for call rates
	 * @param store where the widgets live
	 */
	public ExternalWidgetApi(SampleProperties.ExternalApi properties, @Nullable MeterRegistry meterRegistry,
			Ticker ticker, ExternalWidgetStore store) {
		this.widgets = store;
		this.properties = properties;
		this.meterRegistry = meterRegistry;
		this.log = new CallLog(ticker, LOG_CAPACITY);
	}

	/**
	 * Create the widget for an idempotency key, or return the one already created for it,
	 * as it is, so that a retry after a lost answer does not pay twice. The one returned
	 * may so have the settings of an earlier call.
	 * @param key the idempotency key, such as the Kubernetes object's uid
	 * @param color the color
	 * @param size the size
	 * @return the widget
	 * @throws ExternalApiException if the call fails
	 */
	public ExternalWidget provision(String key, String color, int size) {
		call("provision", key, color);
		return this.widgets.provision(key, color, size);
	}

	/**
	 * Change a widget.
	 * @param id the external id
	 * @param color the new color
	 * @param size the new size
	 * @throws ExternalApiException with status 404 if the API lost the widget, or if the
	 * call fails
	 */
	public void update(String id, String color, int size) {
		ExternalWidget existing = find(id);
		call("update", (existing != null) ? existing.key() : id, color);
		if (existing == null || !this.widgets.update(id, color, size)) {
			throw new ExternalApiException(404, "external widget " + id + " does not exist");
		}
	}

	/**
	 * Look a widget up.
	 * @param id the external id
	 * @return the widget, empty if the API does not know it
	 * @throws ExternalApiException if the call fails
	 */
	public Optional<ExternalWidget> describe(String id) {
		ExternalWidget existing = find(id);
		call("describe", (existing != null) ? existing.key() : id, (existing != null) ? existing.color() : null);
		return Optional.ofNullable(find(id));
	}

	/**
	 * Delete a widget; deleting one the API does not know succeeds.
	 * @param id the external id
	 * @throws ExternalApiException if the call fails
	 */
	public void deprovision(String id) {
		ExternalWidget existing = find(id);
		call("deprovision", (existing != null) ? existing.key() : id, null);
		if (existing != null) {
			this.widgets.remove(id);
		}
	}

	/**
	 * Delete the widget created for an idempotency key, whether or not its id was
	 * recorded; deleting one the API does not hold succeeds.
	 * @param key the idempotency key it was provisioned with
	 * @throws ExternalApiException if the call fails
	 */
	public void deprovisionFor(String key) {
		call("deprovision", key, null);
		this.widgets.findByKey(key).ifPresent((widget) -> this.widgets.remove(widget.id()));
	}

	/**
	 * Return the calls made so far, failed ones included.
	 * @return the number of calls
	 */
	public long calls() {
		return this.calls.sum();
	}

	/**
	 * Return the calls made so far for one idempotency key (one Kubernetes object).
	 * @param key the key
	 * @return the number of calls
	 */
	public long calls(String key) {
		LongAdder count = this.callsByKey.get(key);
		return (count != null) ? count.sum() : 0;
	}

	/**
	 * Return the failed calls so far.
	 * @return the number of failures
	 */
	public long failures() {
		return this.failures.sum();
	}

	/**
	 * Return the calls per second over the last {@code window}.
	 * @param window the window
	 * @return calls per second
	 */
	public double callsPerSecond(Duration window) {
		return this.log.perSecond(window.toNanos());
	}

	/**
	 * Return when the most recent calls started (up to 100,000), oldest first, as
	 * readings of the ticker.
	 * @return the start times in nanoseconds
	 */
	public List<Long> callStarts() {
		return this.log.starts();
	}

	/**
	 * Return how many widgets the API holds.
	 * @return the number of widgets
	 */
	public int size() {
		return this.widgets.widgets().size();
	}

	private @Nullable ExternalWidget find(String id) {
		return this.widgets.find(id).orElse(null);
	}

	private void call(String operation, String key, String color) {
		this.log.record();
		this.calls.increment();
		this.callsByKey.computeIfAbsent(key, (k) -> new LongAdder()).increment();
		try {
			// the latency of a remote call, spent on the worker thread as a real
			// client would
			Duration latency = this.properties.getLatency();
			if (latency.toNanos() > 0) {
				Thread.sleep(latency.toMillis(), latency.toNanosPart() % 1_000_000);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			count(operation, "interrupted");
			throw new ExternalApiException(499, "call to the external API was interrupted");
		}
		ExternalApiException failure = failure(key, color);
		count(operation, (failure != null) ? "failure" : "success");
		if (failure != null) {
			this.failures.increment();
			throw failure;
		}
	}

	private ExternalApiException failure(String key, String color) {
		if (CURSED.equals(color)) {
			return new ExternalApiException(422, "the external API refuses cursed widgets");
		}
		if (FLAKY.equals(color) && this.flakyCalls.computeIfAbsent(key, (k) -> new AtomicInteger())
			.incrementAndGet() <= this.properties.getFlakyFailures()) {
			return new ExternalApiException(503, "the external API is unavailable (flaky widget)");
		}
		if (ThreadLocalRandom.current().nextDouble() < this.properties.getFailureRate()) {
			return new ExternalApiException(503, "the external API is unavailable");
		}
		return null;
	}

	private void count(String operation, String outcome) {
		if (this.meterRegistry != null) {
			Counter.builder(CALLS_METER)
				.description("Calls to the simulated paid external API")
				.tag("operation", operation)
				.tag("outcome", outcome)
				.register(this.meterRegistry)
				.increment();
		}
	}

	/**
	 * A widget as the external API holds it.
	 *
	 * @param id the external id
	 * @param key the idempotency key it was created with
	 * @param color the color
	 * @param size the size
	 */
	public record ExternalWidget(String id, String key, String color, int size) {

	}

}
