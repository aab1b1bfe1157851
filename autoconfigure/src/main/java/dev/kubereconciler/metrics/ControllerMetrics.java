package dev.kubereconciler.metrics;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ControllerState;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * Publishes controller-runtime's controller and work queue metrics through Micrometer, plus
 * the limiter metrics no other framework has: {@code workqueue_waiting},
 * {@code ratelimiter_delay_seconds{controller,source}} and {@code ratelimiter_tokens{limiter}}.
 *
 * <p>Rendered by Micrometer's Prometheus registry, the names are exactly controller-runtime's.
 */
public class ControllerMetrics implements MeterBinder, ControllerListener {

	private static final Duration[] RECONCILE_BUCKETS = seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3,
			0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9,
			10, 15, 20, 25, 30, 40, 50, 60);

	private static final Duration[] QUEUE_BUCKETS = seconds(1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10,
			100, 1000);

	private static final Duration[] DELAY_BUCKETS = seconds(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60,
			300, 1000);

	private final Function<String, Controller> controllers;

	private final Supplier<TokenBucketRateLimiter<?>> managerBucket;

	private final Map<String, ControllerMeters> meters = new ConcurrentHashMap<>();

	private volatile MeterRegistry registry;

	/**
	 * Create the metrics.
	 * @param controllers looks up a running controller by name, for gauges
	 * @param managerBucket the manager-level bucket, for {@code ratelimiter_tokens{limiter="manager"}}
	 */
	public ControllerMetrics(Function<String, Controller> controllers, Supplier<TokenBucketRateLimiter<?>> managerBucket) {
		this.controllers = controllers;
		this.managerBucket = managerBucket;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
		Gauge.builder("ratelimiter.tokens", this.managerBucket, (bucket) -> tokens(bucket.get()))
			.description("Tokens in a token bucket; negative means debt")
			.tags("limiter", "manager")
			.register(registry);
	}

	private static double tokens(TokenBucketRateLimiter<?> bucket) {
		return (bucket != null) ? bucket.tokens() : Double.NaN;
	}

	private ControllerMeters meters(String controller) {
		return this.meters.computeIfAbsent(controller, (name) -> new ControllerMeters(name, this.registry));
	}

	@Override
	public void stateChanged(String controller, ControllerState state) {
		if (this.registry != null) {
			meters(controller).registerGauges(this.controllers);
		}
	}

	@Override
	public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
			Throwable error) {
		if (this.registry == null) {
			return;
		}
		ControllerMeters meters = meters(controller);
		meters.reconcileTotal.get(outcome.resultLabel()).increment();
		meters.reconcileTime.record(nanos, TimeUnit.NANOSECONDS);
		if (outcome.isError()) {
			meters.errors.increment();
		}
		switch (outcome) {
			case TERMINAL_ERROR -> meters.terminalErrors.increment();
			case PANIC -> meters.panics.increment();
			case TIMEOUT -> meters.timeouts.increment();
			default -> {
			}
		}
	}

	@Override
	public void limiterDelayed(String controller, Request request, AddCause cause, DelaySource source,
			Duration delay) {
		if (this.registry != null) {
			meters(controller).delay.get(source).record(delay);
		}
	}

	@Override
	public QueueObserver<Request> queueObserver(String controller) {
		return new QueueObserver<>() {

			@Override
			public void added(Request item, AddCause cause) {
				if (ControllerMetrics.this.registry != null) {
					meters(controller).adds.increment();
				}
			}

			@Override
			public void retried(Request item) {
				if (ControllerMetrics.this.registry != null) {
					meters(controller).retries.increment();
				}
			}

			@Override
			public void dequeued(Request item, long queuedNanos) {
				if (ControllerMetrics.this.registry != null) {
					meters(controller).queueDuration.record(queuedNanos, TimeUnit.NANOSECONDS);
				}
			}

			@Override
			public void finished(Request item, long workNanos) {
				if (ControllerMetrics.this.registry != null) {
					meters(controller).workDuration.record(workNanos, TimeUnit.NANOSECONDS);
				}
			}

		};
	}

	private static Duration[] seconds(double... values) {
		Duration[] durations = new Duration[values.length];
		for (int i = 0; i < values.length; i++) {
			durations[i] = Duration.ofNanos(Math.round(values[i] * 1e9));
		}
		return durations;
	}

	/**
	 * The meters of one controller, created on first use.
	 */
	private static final class ControllerMeters {

		private final String name;

		private final MeterRegistry registry;

		private final Map<String, Counter> reconcileTotal = new ConcurrentHashMap<>();

		private final Map<DelaySource, Timer> delay = new ConcurrentHashMap<>();

		private final Counter errors;

		private final Counter terminalErrors;

		private final Counter panics;

		private final Counter timeouts;

		private final Timer reconcileTime;

		private final Counter adds;

		private final Counter retries;

		private final Timer queueDuration;

		private final Timer workDuration;

		private volatile boolean gaugesRegistered;

		ControllerMeters(String name, MeterRegistry registry) {
			this.name = name;
			this.registry = registry;
			Tags controller = Tags.of("controller", name);
			Tags queue = Tags.of("name", name, "controller", name);
			for (String result : new String[] { "success", "error", "requeue", "requeue_after" }) {
				this.reconcileTotal.put(result, Counter.builder("controller.runtime.reconcile")
					.description("Total number of reconciliations per controller")
					.tags(controller)
					.tag("result", result)
					.register(registry));
			}
			this.errors = counter("controller.runtime.reconcile.errors", "Total number of reconciliation errors per controller", controller);
			this.terminalErrors = counter("controller.runtime.terminal.reconcile.errors",
					"Total number of terminal reconciliation errors per controller", controller);
			this.panics = counter("controller.runtime.reconcile.panics",
					"Total number of reconciliation panics per controller", controller);
			this.timeouts = counter("controller.runtime.reconcile.timeouts",
					"Total number of reconciliation timeouts per controller", controller);
			this.reconcileTime = Timer.builder("controller.runtime.reconcile.time")
				.description("Length of time per reconciliation per controller")
				.tags(controller)
				.serviceLevelObjectives(RECONCILE_BUCKETS)
				.register(registry);
			this.adds = counter("workqueue.adds", "Total number of adds handled by workqueue", queue);
			this.retries = counter("workqueue.retries", "Total number of retries handled by workqueue", queue);
			this.queueDuration = Timer.builder("workqueue.queue.duration")
				.description("How long in seconds an item stays in workqueue before being requested")
				.tags(queue)
				.serviceLevelObjectives(QUEUE_BUCKETS)
				.register(registry);
			this.workDuration = Timer.builder("workqueue.work.duration")
				.description("How long in seconds processing an item from workqueue takes")
				.tags(queue)
				.serviceLevelObjectives(QUEUE_BUCKETS)
				.register(registry);
			for (DelaySource source : DelaySource.values()) {
				this.delay.put(source, Timer.builder("ratelimiter.delay")
					.description("Delay imposed on a key by a rate limiter, by the limiter it is attributed to")
					.tags(controller)
					.tag("source", source.label())
					.serviceLevelObjectives(DELAY_BUCKETS)
					.register(registry));
			}
		}

		private Counter counter(String name, String description, Tags tags) {
			return Counter.builder(name).description(description).tags(tags).register(this.registry);
		}

		void registerGauges(Function<String, Controller> controllers) {
			if (this.gaugesRegistered) {
				return;
			}
			synchronized (this) {
				if (this.gaugesRegistered) {
					return;
				}
				this.gaugesRegistered = true;
			}
			Tags controller = Tags.of("controller", this.name);
			Tags queue = Tags.of("name", this.name, "controller", this.name);
			String name = this.name;
			gauge("controller.runtime.max.concurrent.reconciles", "Maximum number of concurrent reconciles per controller",
					controller, null, controllers, (c) -> c.definition().maxConcurrentReconciles());
			gauge("controller.runtime.active.workers", "Number of currently used workers per controller", controller,
					null, controllers, Controller::activeWorkers);
			gauge("workqueue.depth", "Current depth of workqueue", queue, null, controllers, (c) -> c.queue().depth());
			gauge("workqueue.waiting", "Keys waiting out a delay (rate-limited retry or requeue-after) in workqueue",
					queue, null, controllers, (c) -> c.queue().waiting());
			gauge("workqueue.unfinished.work", "How many seconds of work has been done that is in progress and hasn't "
					+ "been observed by work_duration", queue, "seconds", controllers,
					(c) -> c.queue().unfinishedWorkNanos() / 1e9);
			gauge("workqueue.longest.running.processor", "How many seconds has the longest running processor for "
					+ "workqueue been running", queue, "seconds", controllers,
					(c) -> c.queue().longestRunningProcessorNanos() / 1e9);
			Gauge.builder("ratelimiter.tokens", () -> {
				Controller c = controllers.apply(name);
				TokenBucketRateLimiter<?> bucket = (c != null) ? TokenBuckets.find(c.rateLimiter()) : null;
				return (bucket != null) ? bucket.tokens() : Double.NaN;
			}).description("Tokens in a token bucket; negative means debt").tags("limiter", name).register(this.registry);
		}

		private void gauge(String meterName, String description, Tags tags, String unit,
				Function<String, Controller> controllers, java.util.function.ToDoubleFunction<Controller> value) {
			String name = this.name;
			Gauge.builder(meterName, () -> {
				Controller c = controllers.apply(name);
				return (c != null) ? value.applyAsDouble(c) : Double.NaN;
			}).description(description).tags(tags).baseUnit(unit).register(this.registry);
		}

	}

}
