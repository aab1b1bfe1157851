package dev.kubereconciler.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerDefinitionBuilder;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.controller.StandaloneController;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.source.ChannelSource;
import dev.kubereconciler.source.Source;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.with;

/**
 * Tests for {@link ControllerMetrics}, scraped through Micrometer's Prometheus registry
 * so that the rendered names, labels, types and buckets are asserted as Prometheus sees
 * them, with real controllers on a manual clock where the values must be exact.
 */
class ControllerMetricsTests {

	private final ManualClock scheduler = new ManualClock();

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final Map<String, WorkQueueController> controllers = new ConcurrentHashMap<>();

	private final List<WorkQueueController> started = new ArrayList<>();

	private TokenBucketRateLimiter<Object> managerBucket = RateLimiters.bucket(Double.POSITIVE_INFINITY, 1);

	private final ControllerMetrics metrics = new ControllerMetrics(this.controllers::get, () -> this.managerBucket);

	@AfterEach
	void stop() {
		this.started.forEach((controller) -> controller.stop(Duration.ofSeconds(5)));
	}

	@Test
	void helpTextsAreThoseOfTheCurrentControllerRuntime() {
		this.metrics.bindTo(this.registry);
		start(definition("cm", (request) -> Result.done()));
		// pkg/internal/controller/metrics and pkg/internal/metrics/workqueue.go, word for
		// word
		assertThat(scrape()).contains(
				"# HELP controller_runtime_reconcile_total Total number of reconciliations per controller",
				"# HELP controller_runtime_reconcile_errors_total Total number of reconciliation errors per controller",
				"# HELP controller_runtime_reconcile_time_seconds Length of time per reconciliation per controller",
				"# HELP workqueue_depth Current depth of workqueue by workqueue and priority",
				"# HELP workqueue_adds_total Total number of adds handled by workqueue",
				"# HELP workqueue_retries_total Total number of items added to the workqueue with a non-zero delay "
						+ "(rate-limited requeues, explicit RequeueAfter or AddAfter calls)");
	}

	@Test
	void everyControllerRuntimeSeriesIsRenderedZeroInitialisedOnceAControllerStarts() {
		this.metrics.bindTo(this.registry);
		start(definition("cm", (request) -> Result.done()).maxConcurrentReconciles(3));
		assertThat(scrape()).contains("# TYPE controller_runtime_reconcile_total counter",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"success\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"error\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"requeue\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"requeue_after\"} 0.0",
				"# TYPE controller_runtime_reconcile_errors_total counter",
				"controller_runtime_reconcile_errors_total{controller=\"cm\"} 0.0",
				"# TYPE controller_runtime_terminal_reconcile_errors_total counter",
				"controller_runtime_terminal_reconcile_errors_total{controller=\"cm\"} 0.0",
				"# TYPE controller_runtime_reconcile_panics_total counter",
				"controller_runtime_reconcile_panics_total{controller=\"cm\"} 0.0",
				"# TYPE controller_runtime_reconcile_timeouts_total counter",
				"controller_runtime_reconcile_timeouts_total{controller=\"cm\"} 0.0",
				"# TYPE controller_runtime_reconcile_time_seconds histogram",
				"controller_runtime_reconcile_time_seconds_count{controller=\"cm\"} 0",
				"# TYPE controller_runtime_max_concurrent_reconciles gauge",
				"controller_runtime_max_concurrent_reconciles{controller=\"cm\"} 3.0",
				"# TYPE controller_runtime_active_workers gauge",
				"controller_runtime_active_workers{controller=\"cm\"} 0.0", "# TYPE workqueue_depth gauge",
				"workqueue_depth{controller=\"cm\",name=\"cm\",priority=\"0\"} 0.0",
				"# TYPE workqueue_adds_total counter", "workqueue_adds_total{controller=\"cm\",name=\"cm\"} 0.0",
				"# TYPE workqueue_queue_duration_seconds histogram",
				"workqueue_queue_duration_seconds_count{controller=\"cm\",name=\"cm\"} 0",
				"# TYPE workqueue_work_duration_seconds histogram",
				"workqueue_work_duration_seconds_count{controller=\"cm\",name=\"cm\"} 0",
				"# TYPE workqueue_unfinished_work_seconds gauge",
				"workqueue_unfinished_work_seconds{controller=\"cm\",name=\"cm\"} 0.0",
				"# TYPE workqueue_longest_running_processor_seconds gauge",
				"workqueue_longest_running_processor_seconds{controller=\"cm\",name=\"cm\"} 0.0",
				"# TYPE workqueue_retries_total counter", "workqueue_retries_total{controller=\"cm\",name=\"cm\"} 0.0",
				"# TYPE workqueue_waiting gauge", "workqueue_waiting{controller=\"cm\",name=\"cm\"} 0.0",
				"# TYPE ratelimiter_delay_seconds histogram",
				"ratelimiter_delay_seconds_count{controller=\"cm\",source=\"backoff\"} 0",
				"ratelimiter_delay_seconds_count{controller=\"cm\",source=\"bucket\"} 0",
				"ratelimiter_delay_seconds_count{controller=\"cm\",source=\"manager\"} 0",
				"# TYPE ratelimiter_tokens gauge", "ratelimiter_tokens{limiter=\"cm\"} 100.0",
				"ratelimiter_tokens{limiter=\"manager\"} 1.0");
	}

	@Test
	void histogramsHaveControllerRuntimesBuckets() {
		this.metrics.bindTo(this.registry);
		start(definition("cm", (request) -> Result.done()));
		String scrape = scrape();
		assertThat(buckets(scrape, "controller_runtime_reconcile_time_seconds", "controller=\"cm\"")).containsExactly(
				"0.005", "0.01", "0.025", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.45", "0.5",
				"0.6", "0.7", "0.8", "0.9", "1.0", "1.25", "1.5", "1.75", "2.0", "2.5", "3.0", "3.5", "4.0", "4.5",
				"5.0", "6.0", "7.0", "8.0", "9.0", "10.0", "15.0", "20.0", "25.0", "30.0", "40.0", "50.0", "60.0",
				"+Inf");
		List<String> queueBuckets = List.of("1.0E-8", "1.0E-7", "1.0E-6", "1.0E-5", "1.0E-4", "0.001", "0.01", "0.1",
				"1.0", "10.0", "100.0", "1000.0", "+Inf");
		assertThat(buckets(scrape, "workqueue_queue_duration_seconds", "controller=\"cm\",name=\"cm\""))
			.containsExactlyElementsOf(queueBuckets);
		assertThat(buckets(scrape, "workqueue_work_duration_seconds", "controller=\"cm\",name=\"cm\""))
			.containsExactlyElementsOf(queueBuckets);
		assertThat(buckets(scrape, "ratelimiter_delay_seconds", "controller=\"cm\",source=\"backoff\""))
			.containsExactly("0.001", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0",
					"10.0", "30.0", "60.0", "120.0", "300.0", "600.0", "1000.0", "+Inf");
	}

	@Test
	void eachOutcomeIsCountedUnderControllerRuntimesResultLabel() {
		this.metrics.bindTo(this.registry);
		Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
		WorkQueueController controller = start(definition("cm", (request) -> {
			if (attempts.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet() > 1) {
				return Result.done();
			}
			return switch (request.name()) {
				case "requeue" -> Result.requeue();
				case "requeue-after" -> Result.requeueAfter(Duration.ofHours(1));
				case "error" -> throw new IllegalStateException("on purpose");
				case "terminal" -> throw new TerminalReconcileException("on purpose");
				case "panic" -> throw new AssertionError("on purpose");
				default -> Result.done();
			};
		}).rateLimiter(RateLimiters.none()));
		for (String name : List.of("success", "requeue", "requeue-after", "error", "terminal", "panic")) {
			controller.enqueue(new Request("ns", name));
		}
		awaitReconciles(controller, 9);
		assertThat(scrape()).contains("controller_runtime_reconcile_total{controller=\"cm\",result=\"success\"} 4.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"requeue\"} 1.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"requeue_after\"} 1.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"error\"} 3.0",
				"controller_runtime_reconcile_errors_total{controller=\"cm\"} 3.0",
				"controller_runtime_terminal_reconcile_errors_total{controller=\"cm\"} 1.0",
				"controller_runtime_reconcile_panics_total{controller=\"cm\"} 1.0",
				"controller_runtime_reconcile_timeouts_total{controller=\"cm\"} 0.0",
				// no time passes on the manual clock, so every reconcile lands in the
				// first bucket
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"cm\",le=\"0.005\"} 9",
				"controller_runtime_reconcile_time_seconds_count{controller=\"cm\"} 9",
				"controller_runtime_reconcile_time_seconds_sum{controller=\"cm\"} 0.0",
				// 6 first adds and 3 rate-limited retries without delay; the
				// requeue-after waits
				"workqueue_adds_total{controller=\"cm\",name=\"cm\"} 9.0",
				// as in client-go, every delayed add is a retry, requeue-after included
				"workqueue_retries_total{controller=\"cm\",name=\"cm\"} 4.0",
				"workqueue_waiting{controller=\"cm\",name=\"cm\"} 1.0",
				"workqueue_depth{controller=\"cm\",name=\"cm\",priority=\"0\"} 0.0",
				"workqueue_queue_duration_seconds_count{controller=\"cm\",name=\"cm\"} 9",
				"workqueue_work_duration_seconds_count{controller=\"cm\",name=\"cm\"} 9",
				// one limiter decision per rate-limited requeue, zero delays included
				"ratelimiter_delay_seconds_count{controller=\"cm\",source=\"backoff\"} 3",
				"ratelimiter_delay_seconds_sum{controller=\"cm\",source=\"backoff\"} 0.0");
	}

	@Test
	void limiterDelaysAreExactAndAttributedToTheLimiterThatDecidedThem() {
		this.metrics.bindTo(this.registry);
		Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
		WorkQueueController controller = start(definition("cm", (request) -> {
			if (attempts.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet() == 1) {
				throw new IllegalStateException("first attempt fails");
			}
			return Result.done();
		}).rateLimiter(RateLimiters.controllerDefault(this.scheduler)));
		for (int i = 1; i <= 102; i++) {
			controller.enqueue(new Request("ns", "key-" + i));
		}
		awaitReconciles(controller, 102);
		// the bucket (10 qps, burst 100) lets 100 failures through at once: 5 ms of
		// backoff each; the 101st and 102nd wait for tokens, 100 ms and 200 ms, and leave
		// the bucket 2 in debt
		assertThat(scrape()).contains("ratelimiter_delay_seconds_count{controller=\"cm\",source=\"backoff\"} 100",
				"ratelimiter_delay_seconds_sum{controller=\"cm\",source=\"backoff\"} 0.5",
				"ratelimiter_delay_seconds_bucket{controller=\"cm\",source=\"backoff\",le=\"0.005\"} 100",
				"ratelimiter_delay_seconds_count{controller=\"cm\",source=\"bucket\"} 2",
				"ratelimiter_delay_seconds_sum{controller=\"cm\",source=\"bucket\"} 0.3",
				"ratelimiter_delay_seconds_bucket{controller=\"cm\",source=\"bucket\",le=\"0.1\"} 1",
				"ratelimiter_delay_seconds_bucket{controller=\"cm\",source=\"bucket\",le=\"0.25\"} 2",
				"ratelimiter_delay_seconds_count{controller=\"cm\",source=\"manager\"} 0",
				"ratelimiter_tokens{limiter=\"cm\"} -2.0", "workqueue_waiting{controller=\"cm\",name=\"cm\"} 102.0",
				"workqueue_retries_total{controller=\"cm\",name=\"cm\"} 102.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"error\"} 102.0");
		this.scheduler.advance(Duration.ofMillis(5));
		awaitReconciles(controller, 202);
		assertThat(scrape()).contains("workqueue_waiting{controller=\"cm\",name=\"cm\"} 2.0");
		this.scheduler.advance(Duration.ofMillis(195));
		awaitReconciles(controller, 204);
		assertThat(scrape()).contains("workqueue_waiting{controller=\"cm\",name=\"cm\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"success\"} 102.0",
				"ratelimiter_tokens{limiter=\"cm\"} 0.0");
	}

	@Test
	void managerGateWaitsAreManagerDelayAndPutTheManagerBucketInDebt() {
		this.managerBucket = RateLimiters.bucket(10, 1, this.scheduler);
		ManualClock sleeper = this.scheduler;
		this.metrics.bindTo(this.registry);
		WorkQueueController controller = start(definition("cm", (request) -> Result.done()).maxConcurrentReconciles(3),
				new ManagerGate(this.managerBucket, Trigger.queued(), null));
		for (String name : List.of("a", "b", "c")) {
			controller.enqueue(new Request("ns", name));
		}
		// one worker passes at once; the others reserved the next tokens, 100 ms and 200
		// ms ahead
		await().until(() -> sleeper.sleeping() == 2);
		assertThat(scrape()).contains("ratelimiter_tokens{limiter=\"manager\"} -2.0",
				"ratelimiter_delay_seconds_count{controller=\"cm\",source=\"manager\"} 2",
				"ratelimiter_delay_seconds_sum{controller=\"cm\",source=\"manager\"} 0.3",
				"ratelimiter_delay_seconds_count{controller=\"cm\",source=\"backoff\"} 0");
		this.scheduler.advance(Duration.ofMillis(200));
		awaitReconciles(controller, 3);
		assertThat(scrape()).contains("ratelimiter_tokens{limiter=\"manager\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"success\"} 3.0");
	}

	@Test
	void workerGaugesFollowAReconcileInFlight() throws InterruptedException {
		this.metrics.bindTo(this.registry);
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		WorkQueueController controller = start(definition("cm", (request) -> {
			inside.countDown();
			release.await();
			return Result.done();
		}).maxConcurrentReconciles(2));
		controller.enqueue(new Request("ns", "slow"));
		inside.await();
		this.scheduler.advance(Duration.ofSeconds(3));
		assertThat(scrape()).contains("controller_runtime_active_workers{controller=\"cm\"} 1.0",
				"workqueue_longest_running_processor_seconds{controller=\"cm\",name=\"cm\"} 3.0",
				"workqueue_unfinished_work_seconds{controller=\"cm\",name=\"cm\"} 3.0");
		release.countDown();
		awaitReconciles(controller, 1);
		assertThat(scrape()).contains("controller_runtime_active_workers{controller=\"cm\"} 0.0",
				"workqueue_longest_running_processor_seconds{controller=\"cm\",name=\"cm\"} 0.0",
				"workqueue_work_duration_seconds_bucket{controller=\"cm\",name=\"cm\",le=\"1.0\"} 0",
				"workqueue_work_duration_seconds_bucket{controller=\"cm\",name=\"cm\",le=\"10.0\"} 1",
				"workqueue_work_duration_seconds_sum{controller=\"cm\",name=\"cm\"} 3.0",
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"cm\",le=\"2.5\"} 0",
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"cm\",le=\"3.0\"} 1");
	}

	@Test
	void aReconcilePastItsTimeoutCountsAsATimeoutAndAnError() throws InterruptedException {
		this.metrics.bindTo(this.registry);
		CountDownLatch inside = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		WorkQueueController controller = start(definition("cm", (request) -> {
			if (calls.incrementAndGet() == 1) {
				inside.countDown();
				new CountDownLatch(1).await();
			}
			return Result.done();
		}).rateLimiter(RateLimiters.none()).reconcileTimeout(Duration.ofSeconds(30)));
		controller.enqueue(new Request("ns", "stuck"));
		inside.await();
		this.scheduler.advance(Duration.ofSeconds(30));
		controller.checkTimeouts();
		awaitReconciles(controller, 2);
		assertThat(scrape()).contains("controller_runtime_reconcile_timeouts_total{controller=\"cm\"} 1.0",
				"controller_runtime_reconcile_errors_total{controller=\"cm\"} 1.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"error\"} 1.0",
				"controller_runtime_reconcile_total{controller=\"cm\",result=\"success\"} 1.0");
	}

	@Test
	void aControllerThatStartedBeforeTheBinderWasBoundStillGetsItsSeries() {
		WorkQueueController controller = start(definition("early", (request) -> Result.done()));
		this.metrics.bindTo(this.registry);
		controller.enqueue(new Request("ns", "a"));
		awaitReconciles(controller, 1);
		assertThat(scrape()).contains("controller_runtime_max_concurrent_reconciles{controller=\"early\"} 1.0",
				"controller_runtime_reconcile_total{controller=\"early\",result=\"success\"} 1.0");
	}

	@Test
	void aControllerWithoutATokenBucketHasNoTokensSeries() {
		this.metrics.bindTo(this.registry);
		start(definition("backoff-only", (request) -> Result.done())
			.rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(10))));
		assertThat(scrape()).doesNotContain("ratelimiter_tokens{limiter=\"backoff-only\"}")
			.contains("ratelimiter_tokens{limiter=\"manager\"} 1.0");
	}

	@Test
	void aControllerNamedManagerDoesNotShadowTheManagerBucket() {
		this.managerBucket = RateLimiters.bucket(5, 7, this.scheduler);
		this.metrics.bindTo(this.registry);
		start(definition("manager", (request) -> Result.done()));
		assertThat(scrape()).contains("ratelimiter_tokens{limiter=\"manager\"} 7.0")
			.doesNotContain("ratelimiter_tokens{limiter=\"manager\"} 100.0");
	}

	// the reconcile function ends a definition; the tests adjust the builder first
	private final Map<ControllerDefinitionBuilder<?>, ReconcileFunction> reconcilers = new IdentityHashMap<>();

	@Test
	void keysFromSourcesAreCountedBySourceFromZero() {
		this.metrics.bindTo(this.registry);
		ChannelSource webhook = Source.channel("webhook");
		WorkQueueController controller = start(definition("cm", (request) -> Result.done()).source(webhook)
			.source(Source.timer("nightly", Duration.ofHours(1))));
		assertThat(scrape()).contains("kube_reconciler_source_keys_total{controller=\"cm\",source=\"webhook\"} 0.0",
				"kube_reconciler_source_keys_total{controller=\"cm\",source=\"nightly\"} 0.0");
		webhook.offer(new Request("ns", "a"));
		webhook.offer(new Request("ns", "b"));
		awaitReconciles(controller, 2);
		assertThat(scrape()).contains("kube_reconciler_source_keys_total{controller=\"cm\",source=\"webhook\"} 2.0");
	}

	private ControllerDefinitionBuilder<V1ConfigMap> definition(String name, ReconcileFunction reconciler) {
		RateLimiter<Request> limiter = RateLimiters.controllerDefault(this.scheduler);
		ControllerDefinitionBuilder<V1ConfigMap> builder = ControllerDefinition.builder(V1ConfigMap.class)
			.named(name)
			.rateLimiter(limiter)
			.reconcileTimeout(Duration.ZERO);
		this.reconcilers.put(builder, reconciler);
		return builder;
	}

	private WorkQueueController start(ControllerDefinitionBuilder<?> definition) {
		return start(definition, null);
	}

	private WorkQueueController start(ControllerDefinitionBuilder<?> definition, ManagerGate gate) {
		WorkQueueController controller = StandaloneController
			.build(definition.reconcile(this.reconcilers.get(definition)), this.scheduler, gate, this.metrics);
		this.controllers.put(controller.name(), controller);
		controller.start();
		this.started.add(controller);
		return controller;
	}

	private void awaitReconciles(WorkQueueController controller, int count) {
		await().until(() -> reconciles(controller.name()) == count && controller.queue().inFlight() == 0);
	}

	private double reconciles(String controller) {
		return this.registry.find("controller.runtime.reconcile")
			.tag("controller", controller)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private String scrape() {
		return this.registry.scrape();
	}

	private static List<String> buckets(String scrape, String histogram, String labels) {
		String prefix = histogram + "_bucket{" + labels + ",le=\"";
		return scrape.lines()
			.filter((line) -> line.startsWith(prefix))
			.map((line) -> line.substring(prefix.length(), line.indexOf('"', prefix.length())))
			.toList();
	}

	private static org.awaitility.core.ConditionFactory await() {
		return with().pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(1))
			.await()
			.atMost(Duration.ofSeconds(10));
	}

}
