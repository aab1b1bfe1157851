package dev.kubereconciler.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.actuate.ControllersEndpoint.ControllerDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.ItemDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.ManagerDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.QueueDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.SourceDescriptor;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiterState;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.source.Source;

/**
 * Describes the manager and its controllers for the {@code controllers} endpoint, from
 * their live state and the recorded {@link ControllerActivity}.
 */
final class Descriptors {

	// the source name under which Controller.reconcileAll() counts its keys
	private static final String RECONCILE_ALL = "reconcile-all";

	/** What a key is shown as to those who may not see keys. */
	static final String HIDDEN = "******";

	private final ControllerActivity activity;

	Descriptors(ControllerActivity activity) {
		this.activity = activity;
	}

	ManagerDescriptor manager(ControllerManager manager) {
		ManagerGate gate = manager.gate();
		return new ManagerDescriptor(manager.isLeader(), manager.isLeaderElectionEnabled(), gate.bucket().state(),
				gate.appliesTo().stream().map(Descriptors::label).toList(),
				(gate.maxWait() != null) ? gate.maxWait().toString() : null, gate.admitted(),
				ShardingDescriptor.of(manager), label(gate.acrossClusters()), clusterRateLimiters(gate));
	}

	private static @Nullable Map<String, RateLimiterState> clusterRateLimiters(ManagerGate gate) {
		if (gate.acrossClusters() == ManagerGate.AcrossClusters.SHARED) {
			return null;
		}
		Map<String, RateLimiterState> states = new LinkedHashMap<>();
		gate.clusterBuckets().forEach((cluster, bucket) -> states.put(cluster, bucket.state()));
		return states;
	}

	ControllerDescriptor controller(Controller controller) {
		String name = controller.name();
		return new ControllerDescriptor(controller.resourceType().displayName(), controller.state().label(),
				controller.definition().maxConcurrentReconciles(), controller.activeWorkers(),
				new QueueDescriptor(controller.queue().depth(), controller.queue().waiting(),
						controller.queue().inFlight(), depthByPriority(controller)),
				this.activity.retries(name), this.activity.reconciles(name), controller.rateLimiter().state(),
				this.activity.delays(name),
				this.activity.eventFilterDrops(name, controller.definition().updateFilters().keySet()),
				this.activity.conflicts(name), DependentDescriptor.of(controller, this.activity), sources(controller));
	}

	private List<SourceDescriptor> sources(Controller controller) {
		List<Source> declared = controller.definition().sources();
		Map<String, Long> keys = this.activity.sourceKeys(controller.name(),
				declared.stream().map(Source::name).toList());
		List<SourceDescriptor> sources = new ArrayList<>();
		for (Source source : declared) {
			Duration period = source.period();
			sources.add(new SourceDescriptor(source.name(), source.kind(), (period != null) ? period.toString() : null,
					keys.getOrDefault(source.name(), 0L)));
		}
		Long all = keys.get(RECONCILE_ALL);
		if (all != null && declared.stream().noneMatch((source) -> source.name().equals(RECONCILE_ALL))) {
			sources.add(new SourceDescriptor(RECONCILE_ALL, RECONCILE_ALL, null, all));
		}
		return sources;
	}

	private static Map<String, Integer> depthByPriority(Controller controller) {
		// highest priority first, the order in which the keys are handed out
		Map<String, Integer> depth = new LinkedHashMap<>();
		controller.queue()
			.depthByPriority()
			.entrySet()
			.stream()
			.sorted(Map.Entry.<Integer, Integer>comparingByKey().reversed())
			.forEach((entry) -> depth.put(String.valueOf(entry.getKey()), entry.getValue()));
		return depth;
	}

	static ItemDescriptor item(Controller controller, Request request, long retries, boolean showKeys) {
		Duration nextAttemptIn = controller.queue().remainingDelay(request).orElse(Duration.ZERO);
		return new ItemDescriptor(showKeys ? request.key() : HIDDEN, retries, controller.queue().numRequeues(request),
				nextAttemptIn.toString());
	}

	static String label(Enum<?> value) {
		return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
