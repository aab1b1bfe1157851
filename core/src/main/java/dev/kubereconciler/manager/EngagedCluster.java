package dev.kubereconciler.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cluster.ClusterState;
import dev.kubereconciler.cluster.ClusterStatus;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.events.EventRecorders;
import dev.kubereconciler.internal.cache.InformerCaches;
import dev.kubereconciler.internal.cache.ServerReachability;
import dev.kubereconciler.internal.cache.WatchingController;
import dev.kubereconciler.internal.context.ReconcilerBinder;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.internal.dependent.DependentsReconciler;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.DelayScheduler;

/**
 * What one engaged cluster runs for the fleet's controllers: its informers, whose keys
 * carry its name, its reconcile functions bound to its own cache views and client, and
 * its Event recorders. Everything is made on engage and dropped on {@link #stop()}, so
 * that a disengaged cluster's caches can be collected.
 */
final class EngagedCluster {

	private final String name;

	private final ApiClient client;

	private final InformerCaches caches;

	private final Map<String, ReconcileFunction> reconcilers = new HashMap<>();

	private final List<WorkQueueController> controllers;

	private final @Nullable EventRecorders events;

	private final DelayScheduler clock;

	private final ServerReachability reachability;

	EngagedCluster(String name, ApiClient client, List<WorkQueueController> controllers, Settings settings) {
		this.name = name;
		this.client = client;
		this.controllers = List.copyOf(controllers);
		this.clock = settings.clock();
		this.events = (settings.events() != null) ? settings.events().apply(client) : null;
		EventRecorders recorders = this.events;
		Function<String, EventRecorder> byController = (recorders != null) ? recorders::forController
				: (controller) -> EventRecorder.noop();
		this.caches = new InformerCaches(client, null, settings.builder().cacheTransforms,
				settings.builder().listPageSize, settings.builder().watchCacheListMax, this.clock,
				settings.cacheOptions());
		this.reachability = new ServerReachability(this.clock, settings.retryBackoff(), settings.retryBackoffCap());
		this.caches.reachability(this.reachability);
		this.caches.wire(name,
				this.controllers.stream()
					.map((controller) -> new WatchingController(controller.definition(),
							(request, priority) -> controller.add(request.inCluster(name), priority),
							settings.builder().listener, controller.scope(), controller))
					.toList());
		ReconcilerBinder binder = new ReconcilerBinder(client, byController, this.clock, settings.builder().listener,
				DependentsReconciler::create);
		for (WorkQueueController controller : this.controllers) {
			this.reconcilers.put(controller.name(), binder.bind(controller.definition()));
		}
		binder.attach(this.caches.informers(), this.caches::stripsManagedFields, settings.cacheOptions());
	}

	String name() {
		return this.name;
	}

	ApiClient client() {
		return this.client;
	}

	void start() {
		EventRecorders recorders = this.events;
		if (recorders != null) {
			recorders.start(this.clock);
		}
		this.caches.start();
	}

	void stop() {
		this.caches.stop();
		EventRecorders recorders = this.events;
		if (recorders != null) {
			recorders.stop();
		}
	}

	@Nullable ReconcileFunction reconciler(String controller) {
		return this.reconcilers.get(controller);
	}

	List<Request> cachedKeys(ControllerDefinition definition) {
		List<Request> keys = new ArrayList<>();
		for (Request request : this.caches.cachedKeys(definition)) {
			keys.add(request.inCluster(this.name));
		}
		return keys;
	}

	InformerCaches caches() {
		return this.caches;
	}

	ClusterStatus status() {
		ClusterState state = !this.reachability.isReachable() ? ClusterState.UNREACHABLE
				: this.caches.hasSynced() ? ClusterState.READY : ClusterState.SYNCING;
		return new ClusterStatus(this.name, state, this.caches.informers().size());
	}

	/**
	 * What every engaged cluster is made with.
	 *
	 * @param builder the manager's settings
	 * @param clock the manager's clock
	 * @param cacheOptions how each type is cached
	 * @param events makes the Event recorders of a cluster from its client, or
	 * {@code null} for none
	 * @param retryBackoff the time between an informer's failed list or watch and its
	 * first retry while the server does not answer
	 * @param retryBackoffCap the longest time between two retries
	 */
	record Settings(ManagerBuilder builder, DelayScheduler clock, CacheOptions cacheOptions,
			@Nullable Function<ApiClient, EventRecorders> events, Duration retryBackoff, Duration retryBackoffCap) {
	}

}
