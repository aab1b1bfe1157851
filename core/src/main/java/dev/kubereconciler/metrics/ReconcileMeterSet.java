package dev.kubereconciler.metrics;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.ratelimit.DelaySource;

/**
 * The meters of what happens to one controller's keys of one cluster: its reconciles and
 * their time, its queue's adds, retries and durations, and the limiters' delays. A
 * manager with a fleet labels them with the cluster's name ({@code cluster=""} for the
 * local one); gauges of the controller's one queue stay the controller's.
 */
final class ReconcileMeterSet {

	private static final String[] RESULTS = { "success", "error", "requeue", "requeue_after" };

	private final Map<String, Counter> reconciles = new HashMap<>();

	private final Map<DelaySource, Timer> delays = new EnumMap<>(DelaySource.class);

	private final Counter errors;

	private final Counter terminalErrors;

	private final Counter panics;

	private final Counter timeouts;

	private final Timer reconcileTime;

	private final Counter conflicts;

	final Counter adds;

	final Counter retries;

	final Timer queueDuration;

	final Timer workDuration;

	/**
	 * Register the meters.
	 * @param registry the registry
	 * @param controllerTags the controller's tags, with the cluster's when labelled
	 * @param queueTags the queue's tags, with the cluster's when labelled
	 */
	ReconcileMeterSet(MeterRegistry registry, Tags controllerTags, Tags queueTags) {
		for (String result : RESULTS) {
			this.reconciles.put(result,
					Counter.builder("controller.runtime.reconcile")
						.description("Total number of reconciliations per controller")
						.tags(controllerTags)
						.tag("result", result)
						.register(registry));
		}
		this.errors = ControllerMeterSet.counter(registry, "controller.runtime.reconcile.errors",
				"Total number of reconciliation errors per controller", controllerTags);
		this.terminalErrors = ControllerMeterSet.counter(registry, "controller.runtime.terminal.reconcile.errors",
				"Total number of terminal reconciliation errors per controller", controllerTags);
		this.panics = ControllerMeterSet.counter(registry, "controller.runtime.reconcile.panics",
				"Total number of reconciliation panics per controller", controllerTags);
		this.timeouts = ControllerMeterSet.counter(registry, "controller.runtime.reconcile.timeouts",
				"Total number of reconciliation timeouts per controller", controllerTags);
		this.reconcileTime = ControllerMeterSet.timer(registry, "controller.runtime.reconcile.time",
				"Length of time per reconciliation per controller", controllerTags,
				ControllerMeterSet.RECONCILE_BUCKETS);
		this.conflicts = ControllerMeterSet.counter(registry, "kube.reconciler.reconcile.conflicts",
				"Total number of reconcile errors caused by a write conflict (HTTP 409) per controller",
				controllerTags);
		this.adds = ControllerMeterSet.counter(registry, "workqueue.adds", "Total number of adds handled by workqueue",
				queueTags);
		this.queueDuration = ControllerMeterSet.timer(registry, "workqueue.queue.duration",
				"How long in seconds an item stays in workqueue before being requested", queueTags,
				ControllerMeterSet.QUEUE_BUCKETS);
		this.workDuration = ControllerMeterSet.timer(registry, "workqueue.work.duration",
				"How long in seconds processing an item from workqueue takes.", queueTags,
				ControllerMeterSet.QUEUE_BUCKETS);
		this.retries = ControllerMeterSet.counter(registry, "workqueue.retries",
				"Total number of items added to the workqueue with a non-zero delay "
						+ "(rate-limited requeues, explicit RequeueAfter or AddAfter calls)",
				queueTags);
		for (DelaySource source : DelaySource.values()) {
			this.delays.put(source,
					ControllerMeterSet.timer(registry, "ratelimiter.delay",
							"How long a rate limiter made a key wait, by the limiter the delay is attributed to",
							controllerTags.and("source", source.label()), ControllerMeterSet.DELAY_BUCKETS));
		}
	}

	void reconcileFinished(ReconcileOutcome outcome, long nanos) {
		Objects.requireNonNull(this.reconciles.get(outcome.resultLabel())).increment();
		this.reconcileTime.record(nanos, TimeUnit.NANOSECONDS);
		if (outcome.isError()) {
			this.errors.increment();
		}
		switch (outcome) {
			case TERMINAL_ERROR -> this.terminalErrors.increment();
			case PANIC -> this.panics.increment();
			case TIMEOUT -> this.timeouts.increment();
			default -> {
			}
		}
	}

	void conflict() {
		this.conflicts.increment();
	}

	Timer delay(DelaySource source) {
		return Objects.requireNonNull(this.delays.get(source));
	}

}
