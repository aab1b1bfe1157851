package dev.kubereconciler.metrics;

import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.kubereconciler.events.EventDrop;
import dev.kubereconciler.events.EventRecorderListener;

/**
 * Counts the Kubernetes Events that controllers wrote and dropped:
 * {@code kube_reconciler_events_written_total{controller}} and
 * {@code kube_reconciler_events_dropped_total{controller,reason}}, where reason is
 * {@code spam-filter}, {@code buffer-full}, {@code write-failed} or {@code invalid}.
 */
public final class EventMetrics implements MeterBinder, EventRecorderListener {

	private final AtomicReference<MeterRegistry> registry = new AtomicReference<>();

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry.set(registry);
	}

	@Override
	public void written(String controller) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			Counter.builder("kube.reconciler.events.written")
				.description("Total number of Kubernetes Events written, as new objects or series updates")
				.tag("controller", controller)
				.register(registry)
				.increment();
		}
	}

	@Override
	public void dropped(String controller, EventDrop reason) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			dropped(registry, controller, reason).increment();
		}
	}

	private static Counter dropped(MeterRegistry registry, String controller, EventDrop reason) {
		return Counter.builder("kube.reconciler.events.dropped")
			.description("Total number of Kubernetes Events dropped, by reason")
			.tag("controller", controller)
			.tag("reason", reason.label())
			.register(registry);
	}

}
