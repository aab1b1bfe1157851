package dev.kubereconciler.metrics;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ControllerState;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Publishes controller-runtime's controller and work queue metrics through Micrometer,
 * under names that Micrometer's Prometheus registry renders exactly as controller-runtime
 * does, plus {@code workqueue_waiting}, {@code ratelimiter_delay_seconds},
 * {@code ratelimiter_tokens} and the {@code kube_reconciler_dependent_*} meters of each
 * dependent.
 *
 * <p>
 * A controller's meters are registered, zero-initialised, when it first changes state, as
 * controller-runtime initialises its metrics when a controller starts. Gauges read the
 * live controller, looked up by name, so they follow its queue across restarts.
 */
public final class ControllerMetrics implements MeterBinder, ControllerListener {

	private static final Logger logger = LoggerFactory.getLogger(ControllerMetrics.class);

	private final Function<String, @Nullable Controller> controllers;

	private final Supplier<@Nullable TokenBucketRateLimiter<?>> managerBucket;

	private final Map<String, ControllerMeterSet> meters = new ConcurrentHashMap<>();

	// controllers that changed state before the binder was bound, registered by bindTo
	private final Set<String> seen = new LinkedHashSet<>();

	private volatile @Nullable MeterRegistry registry;

	private final BooleanSupplier clusterLabel;

	/**
	 * Create the metrics with no {@code cluster} label.
	 * @param controllers looks up a controller by name, for the gauges; may return
	 * {@code null}, which the gauges report as NaN
	 * @param managerBucket the manager-level bucket, for
	 * {@code ratelimiter_tokens{limiter="manager"}}; may supply {@code null} when there
	 * is none
	 */
	public ControllerMetrics(Function<String, @Nullable Controller> controllers,
			Supplier<@Nullable TokenBucketRateLimiter<?>> managerBucket) {
		this(controllers, managerBucket, () -> false);
	}

	/**
	 * Create the metrics.
	 * @param controllers looks up a controller by name, for the gauges; may return
	 * {@code null}, which the gauges report as NaN
	 * @param managerBucket the manager-level bucket, for
	 * {@code ratelimiter_tokens{limiter="manager"}}; may supply {@code null} when there
	 * is none
	 * @param clusterLabel whether the meters of what happens to keys carry their
	 * {@code cluster}, asked when a controller's meters are first registered: true for a
	 * manager with a fleet, so that every series of a name has the label, {@code ""} for
	 * the local cluster's
	 */
	public ControllerMetrics(Function<String, @Nullable Controller> controllers,
			Supplier<@Nullable TokenBucketRateLimiter<?>> managerBucket, BooleanSupplier clusterLabel) {
		this.controllers = controllers;
		this.managerBucket = managerBucket;
		this.clusterLabel = clusterLabel;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		TokenMeterSet.manager(registry, this.managerBucket);
		synchronized (this.seen) {
			this.registry = registry;
			this.seen.forEach(this::meters);
			this.seen.clear();
		}
	}

	@Override
	public void stateChanged(String controller, ControllerState state) {
		synchronized (this.seen) {
			if (this.registry == null) {
				this.seen.add(controller);
				return;
			}
		}
		meters(controller);
	}

	@Override
	public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
			@Nullable Throwable error) {
		ControllerMeterSet meters = meters(controller);
		if (meters != null) {
			ReconcileMeterSet cluster = meters.forCluster(request.cluster());
			cluster.reconcileFinished(outcome, nanos);
			if (outcome == ReconcileOutcome.ERROR && ReconcileOutcome.isConflict(error)) {
				cluster.conflict();
			}
		}
	}

	@Override
	public void limiterDelayed(String controller, Request request, Trigger cause, DelaySource source, Duration delay) {
		ControllerMeterSet meters = meters(controller);
		if (meters != null) {
			meters.forCluster(request.cluster()).delay(source).record(delay);
		}
	}

	@Override
	public void updateFiltered(String controller, String filter) {
		ControllerMeterSet meters = meters(controller);
		if (meters != null) {
			meters.updateFiltered(filter);
		}
	}

	@Override
	public void cacheReadThrough(String controller, String type, String verb) {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			// Micrometer keeps one counter per name and tags, looked up on each read
			Counter.builder("kube.reconciler.cache.read.through.requests")
				.description("Reads of read-through types that went to the API server instead of a cache")
				.tag("type", type)
				.tag("verb", verb)
				.register(registry)
				.increment();
		}
	}

	@Override
	public void sourceKeyAdded(String controller, String source) {
		ControllerMeterSet meters = meters(controller);
		if (meters != null) {
			meters.sourceKeys(source).increment();
		}
	}

	@Override
	public void dependentApplied(String controller, String dependent, boolean changed, boolean drift) {
		try {
			ControllerMeterSet meters = meters(controller);
			if (meters != null) {
				meters.dependent(dependent).applied(changed, drift);
			}
		}
		catch (RuntimeException ex) {
			notRecorded(controller, dependent, ex);
		}
	}

	@Override
	public void dependentPruned(String controller, String dependent) {
		try {
			ControllerMeterSet meters = meters(controller);
			if (meters != null) {
				meters.dependent(dependent).pruned();
			}
		}
		catch (RuntimeException ex) {
			notRecorded(controller, dependent, ex);
		}
	}

	@Override
	public void dependentReady(String controller, String dependent, Duration waited) {
		try {
			ControllerMeterSet meters = meters(controller);
			if (meters != null) {
				meters.dependent(dependent).ready(waited);
			}
		}
		catch (RuntimeException ex) {
			notRecorded(controller, dependent, ex);
		}
	}

	// these are called from inside a reconcile, which a meter that cannot be registered
	// (its name taken by a meter with other tags) must not fail
	private static void notRecorded(String controller, String dependent, RuntimeException ex) {
		logger.warn("Cannot record the meters of dependent '{}' of controller '{}': {}", dependent, controller,
				ex.toString());
	}

	@Override
	public QueueObserver<Request> queueObserver(String controller) {
		return new QueueObserver<>() {

			@Override
			public void added(Request item, Trigger cause, int priority) {
				ControllerMeterSet meters = meters(controller);
				if (meters != null) {
					meters.forCluster(item.cluster()).adds.increment();
					meters.depthByPriority.observe(priority);
				}
			}

			@Override
			public void retried(Request item) {
				ControllerMeterSet meters = meters(controller);
				if (meters != null) {
					meters.forCluster(item.cluster()).retries.increment();
				}
			}

			@Override
			public void dequeued(Request item, long queuedNanos) {
				ControllerMeterSet meters = meters(controller);
				if (meters != null) {
					meters.forCluster(item.cluster()).queueDuration.record(queuedNanos, TimeUnit.NANOSECONDS);
				}
			}

			@Override
			public void finished(Request item, long workNanos) {
				ControllerMeterSet meters = meters(controller);
				if (meters != null) {
					meters.forCluster(item.cluster()).workDuration.record(workNanos, TimeUnit.NANOSECONDS);
				}
			}

		};
	}

	private @Nullable ControllerMeterSet meters(String controller) {
		ControllerMeterSet meters = this.meters.get(controller);
		if (meters != null) {
			return meters;
		}
		MeterRegistry registry = this.registry;
		if (registry == null) {
			// nothing to record into yet; the controller's meters start at zero
			// once bound
			return null;
		}
		return this.meters.computeIfAbsent(controller, (name) -> new ControllerMeterSet(registry, name,
				() -> this.controllers.apply(name), this.clusterLabel.getAsBoolean()));
	}

}
