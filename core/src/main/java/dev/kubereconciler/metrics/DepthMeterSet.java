package dev.kubereconciler.metrics;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.queue.Priorities;

/**
 * {@code workqueue_depth} with controller-runtime's {@code priority} label
 * ({@code pkg/internal/metrics/workqueue.go}): one series per priority seen, at most
 * {@value #MAX_PRIORITIES} of them, and the depth at any further priority under
 * {@value #EXCEEDED}, so that a reconciler that sets many priorities cannot blow up the
 * number of series.
 */
final class DepthMeterSet {

	/** controller-runtime's {@code maxRecommendedUniquePriorities}. */
	static final int MAX_PRIORITIES = 25;

	/** controller-runtime's placeholder label once the limit is reached. */
	static final String EXCEEDED = "exceeded_cardinality_limit";

	private final MeterRegistry registry;

	private final Tags tags;

	private final Supplier<Controller> controller;

	private final Set<Integer> labelled = ConcurrentHashMap.newKeySet();

	private volatile boolean exceeded;

	DepthMeterSet(MeterRegistry registry, Tags tags, Supplier<Controller> controller) {
		this.registry = registry;
		this.tags = tags;
		this.controller = controller;
		observe(Priorities.NORMAL);
	}

	/**
	 * Make sure the depth at a priority has a series.
	 * @param priority a priority a key was added with
	 */
	void observe(int priority) {
		if (this.labelled.contains(priority) || this.exceeded) {
			return;
		}
		Controller controller = this.controller.get();
		if (priority != Priorities.NORMAL && controller != null && !controller.queue().isPriorityQueue()) {
			// a plain queue reports its whole depth at the normal priority
			return;
		}
		synchronized (this) {
			if (this.labelled.contains(priority) || this.exceeded) {
				return;
			}
			if (this.labelled.size() < MAX_PRIORITIES) {
				register(String.valueOf(priority), (depth) -> depth.getOrDefault(priority, 0));
				this.labelled.add(priority);
			}
			else {
				register(EXCEEDED, this::unlabelled);
				this.exceeded = true;
			}
		}
	}

	private int unlabelled(Map<Integer, Integer> depth) {
		int sum = 0;
		for (Map.Entry<Integer, Integer> entry : depth.entrySet()) {
			sum += this.labelled.contains(entry.getKey()) ? 0 : entry.getValue();
		}
		return sum;
	}

	private void register(String label, java.util.function.ToIntFunction<Map<Integer, Integer>> value) {
		Gauge.builder("workqueue.depth", this.controller, (supplier) -> {
			Controller controller = supplier.get();
			return (controller != null) ? value.applyAsInt(controller.queue().depthByPriority()) : 0;
		})
			.description("Current depth of workqueue by workqueue and priority")
			.tags(this.tags)
			.tag("priority", label)
			.register(this.registry);
	}

}
