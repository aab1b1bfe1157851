package dev.kubereconciler.metrics;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one dependent of one controller: applies by whether they changed the
 * server's object, drift corrections, prunes and the time to ready. Names are
 * Micrometer's dotted form; the Prometheus registry renders them as
 * {@code kube_reconciler_dependent_*_total} and
 * {@code kube_reconciler_dependent_time_to_ready_seconds}.
 */
final class DependentMeterSet {

	/**
	 * Time to ready buckets, from a ConfigMap that is ready at once to a rollout that
	 * takes an hour; 600 s is the default ready timeout.
	 */
	static final Duration[] READY_BUCKETS = ControllerMeterSet.seconds(0.1, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120, 300,
			600, 1200, 1800, 3600);

	private final Counter changed;

	private final Counter unchanged;

	private final Counter driftCorrections;

	private final Counter prunes;

	private final Timer timeToReady;

	DependentMeterSet(MeterRegistry registry, Tags controllerTags, String dependent) {
		Tags tags = controllerTags.and("dependent", dependent);
		this.changed = applies(registry, tags, "changed");
		this.unchanged = applies(registry, tags, "unchanged");
		this.driftCorrections = Counter.builder("kube.reconciler.dependent.drift.corrections")
			.description("Total number of applies of a dependent that put back a field someone else had changed")
			.tags(tags)
			.register(registry);
		this.prunes = Counter.builder("kube.reconciler.dependent.prunes")
			.description("Total number of objects of a dependent deleted because it no longer wanted them")
			.tags(tags)
			.register(registry);
		this.timeToReady = Timer.builder("kube.reconciler.dependent.time.to.ready")
			.description("How long a dependent that a reconcile found not ready took to become ready")
			.tags(tags)
			.serviceLevelObjectives(READY_BUCKETS)
			.register(registry);
	}

	private static Counter applies(MeterRegistry registry, Tags tags, String result) {
		return Counter.builder("kube.reconciler.dependent.applies")
			.description("Total number of times a controller made sure a dependent object is as it wants it, by "
					+ "whether the server's object changed")
			.tags(tags)
			.tag("result", result)
			.register(registry);
	}

	void applied(boolean changed, boolean drift) {
		(changed ? this.changed : this.unchanged).increment();
		if (drift) {
			this.driftCorrections.increment();
		}
	}

	void pruned() {
		this.prunes.increment();
	}

	void ready(Duration waited) {
		this.timeToReady.record(waited);
	}

}
