package dev.kubereconciler.metrics;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.StandaloneController;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that no meter is registered twice in a registry that publishes histograms as
 * gauges in Micrometer's common format ({@code <name>.histogram} with an {@code le} tag
 * of at most six decimals), as the {@link SimpleMeterRegistry} of every Spring Boot test
 * does: Micrometer would log "This Gauge has been already registered" and drop the
 * bucket.
 */
class GaugeHistogramRegistrationTests {

	private final ManualClock scheduler = new ManualClock();

	private final Map<String, WorkQueueController> controllers = new ConcurrentHashMap<>();

	private final ListAppender<ILoggingEvent> micrometerLog = new ListAppender<>();

	private final Logger micrometerLogger = (Logger) LoggerFactory.getLogger(MeterRegistry.class);

	private Level level;

	private WorkQueueController controller;

	@BeforeEach
	void captureMicrometersWarnings() {
		// Micrometer warns once per registry and logs every later case at debug level
		this.level = this.micrometerLogger.getLevel();
		this.micrometerLogger.setLevel(Level.DEBUG);
		this.micrometerLog.start();
		this.micrometerLogger.addAppender(this.micrometerLog);
	}

	@AfterEach
	void stop() {
		this.micrometerLogger.detachAppender(this.micrometerLog);
		this.micrometerLogger.setLevel(this.level);
		if (this.controller != null) {
			this.controller.stop(Duration.ofSeconds(5));
		}
	}

	@Test
	void aControllersAndAWebhooksMetersRegisterEachGaugeOnce() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerMetrics metrics = new ControllerMetrics(this.controllers::get,
				() -> RateLimiters.bucket(Double.POSITIVE_INFINITY, 1));
		metrics.bindTo(registry);
		startController(metrics);
		WebhookMetrics webhooks = new WebhookMetrics();
		webhooks.bindTo(registry);
		webhooks.started("/validate");
		webhooks.finished("/validate", 200, 1);
		assertThat(this.micrometerLog.list).extracting(ILoggingEvent::getFormattedMessage)
			.noneMatch((message) -> message.contains("already registered"));
	}

	@Test
	void everyBucketOfTheWorkQueueHistogramsHasAGaugeOfItsOwn() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerMetrics metrics = new ControllerMetrics(this.controllers::get,
				() -> RateLimiters.bucket(Double.POSITIVE_INFINITY, 1));
		metrics.bindTo(registry);
		startController(metrics);
		for (String histogram : List.of("workqueue.queue.duration.histogram", "workqueue.work.duration.histogram")) {
			List<String> bounds = registry.find(histogram)
				.tag("controller", "cm")
				.gauges()
				.stream()
				.map((gauge) -> gauge.getId().getTag("le"))
				.toList();
			assertThat(bounds).as(histogram).doesNotHaveDuplicates().hasSize(bucketsAsGauges());
		}
		assertThat(registry.find("workqueue.queue.duration.histogram").gauges())
			.allSatisfy((gauge) -> assertThat(gauge.getId().getTag("le")).isNotEqualTo("0").isNotEqualTo("0.0"));
		assertThat(registry.find("workqueue.queue.duration.histogram").gauges()).extracting(Gauge::value)
			.containsOnly(0.0);
	}

	@Test
	void prometheusKeepsControllerRuntimesBoundsAndOtherRegistriesThoseTheyCanPrint() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		assertThat(HistogramBuckets.forRegistry(prometheus, ControllerMeterSet.QUEUE_BUCKETS))
			.containsExactly(ControllerMeterSet.QUEUE_BUCKETS);
		assertThat(HistogramBuckets.forRegistry(new CompositeMeterRegistry(Clock.SYSTEM, List.of(prometheus)),
				ControllerMeterSet.QUEUE_BUCKETS))
			.containsExactly(ControllerMeterSet.QUEUE_BUCKETS);
		Duration[] fromAMicrosecond = Arrays.copyOfRange(ControllerMeterSet.QUEUE_BUCKETS, 2, 12);
		assertThat(fromAMicrosecond[0]).isEqualTo(Duration.ofNanos(1000));
		assertThat(HistogramBuckets.forRegistry(new SimpleMeterRegistry(), ControllerMeterSet.QUEUE_BUCKETS))
			.containsExactly(fromAMicrosecond);
		assertThat(HistogramBuckets.forRegistry(
				new CompositeMeterRegistry(Clock.SYSTEM, List.of(prometheus, new SimpleMeterRegistry())),
				ControllerMeterSet.QUEUE_BUCKETS))
			.containsExactly(fromAMicrosecond);
		assertThat(HistogramBuckets.forRegistry(new SimpleMeterRegistry(), ControllerMeterSet.RECONCILE_BUCKETS))
			.containsExactly(ControllerMeterSet.RECONCILE_BUCKETS);
	}

	// the bounds Micrometer's common format tells apart
	private static int bucketsAsGauges() {
		return HistogramBuckets.distinctInCommonFormat(ControllerMeterSet.QUEUE_BUCKETS).length;
	}

	private void startController(ControllerMetrics metrics) {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("cm")
			.rateLimiter(RateLimiters.controllerDefault(this.scheduler))
			.reconcileTimeout(Duration.ZERO)
			.reconcile((request) -> Result.done());
		this.controller = StandaloneController.build(definition, this.scheduler, null, metrics);
		this.controllers.put(this.controller.name(), this.controller);
		this.controller.start();
	}

}
