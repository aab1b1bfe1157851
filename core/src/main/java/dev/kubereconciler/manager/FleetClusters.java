package dev.kubereconciler.manager;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cluster.ClusterAware;
import dev.kubereconciler.cluster.ClusterProvider;
import dev.kubereconciler.cluster.ClusterStatus;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.internal.cache.InformerCaches;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;

/**
 * The manager's side of its cluster providers: the engaged clusters by name, each with
 * what it runs for the controllers whose scope includes the fleet. Engaging and
 * disengaging never wait for a cluster's API server, so an unreachable cluster holds up
 * neither the others nor the manager's start and stop.
 */
final class FleetClusters implements ClusterAware {

	private static final Logger logger = LoggerFactory.getLogger(FleetClusters.class);

	private final Map<String, EngagedCluster> engaged = new ConcurrentHashMap<>();

	private final List<ClusterProvider> providers;

	private final EngagedCluster.Settings settings;

	private final Object monitor = new Object();

	private List<WorkQueueController> controllers = List.of();

	private boolean running;

	FleetClusters(List<ClusterProvider> providers, EngagedCluster.Settings settings) {
		this.providers = List.copyOf(providers);
		this.settings = settings;
	}

	List<ClusterProvider> providers() {
		return this.providers;
	}

	/**
	 * Set the controllers that run on the fleet, before {@link #start()}.
	 * @param controllers the controllers whose scope includes the fleet
	 */
	void controllers(List<WorkQueueController> controllers) {
		this.controllers = List.copyOf(controllers);
	}

	void start() {
		synchronized (this.monitor) {
			this.running = true;
		}
		for (ClusterProvider provider : this.providers) {
			provider.start(this);
		}
	}

	void stop() {
		for (ClusterProvider provider : this.providers) {
			try {
				provider.stop();
			}
			catch (RuntimeException ex) {
				logger.warn("Cluster provider {} failed to stop", provider, ex);
			}
		}
		synchronized (this.monitor) {
			this.running = false;
			new ArrayList<>(this.engaged.keySet()).forEach(this::disengage);
		}
	}

	@Override
	public void engage(String name, ApiClient client) {
		if (name == null || name.isEmpty()) {
			throw new IllegalArgumentException(
					"A cluster's name must not be empty: the empty name is the local cluster");
		}
		synchronized (this.monitor) {
			if (!this.running) {
				return;
			}
			EngagedCluster current = this.engaged.get(name);
			if (current != null) {
				if (current.client() == client) {
					return;
				}
				disengage(name);
			}
			EngagedCluster cluster = new EngagedCluster(name, client, this.controllers, this.settings);
			this.engaged.put(name, cluster);
			cluster.start();
			logger.info("Engaged cluster '{}' for {} controller(s)", name, this.controllers.size());
		}
	}

	@Override
	public void disengage(String name) {
		synchronized (this.monitor) {
			EngagedCluster cluster = this.engaged.remove(name);
			if (cluster == null) {
				return;
			}
			cluster.stop();
			logger.info("Disengaged cluster '{}'", name);
		}
	}

	/**
	 * Return the reconcile function of a controller in an engaged cluster.
	 * @param cluster the cluster's name
	 * @param controller the controller's name
	 * @return the function, or {@code null} when the cluster is not engaged
	 */
	@Nullable ReconcileFunction reconciler(String cluster, String controller) {
		EngagedCluster engaged = this.engaged.get(cluster);
		return (engaged != null) ? engaged.reconciler(controller) : null;
	}

	/**
	 * Return the keys of a controller's primary objects in every engaged cluster.
	 * @param definition the controller's definition
	 * @return the keys, each naming its cluster
	 */
	List<Request> cachedKeys(ControllerDefinition definition) {
		List<Request> keys = new ArrayList<>();
		this.engaged.values().forEach((cluster) -> keys.addAll(cluster.cachedKeys(definition)));
		return keys;
	}

	List<ClusterStatus> statuses() {
		return this.engaged.values()
			.stream()
			.map(EngagedCluster::status)
			.sorted(Comparator.comparing(ClusterStatus::name))
			.toList();
	}

	@Nullable InformerCaches caches(String cluster) {
		EngagedCluster engaged = this.engaged.get(cluster);
		return (engaged != null) ? engaged.caches() : null;
	}

}
