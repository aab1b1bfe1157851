package dev.kubereconciler.internal.cache;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.reconcile.KubernetesObjects;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;

/**
 * Enqueues the keys that a {@link MappedWatch}'s mapper returns for a changed object. As
 * controller-runtime's {@code EnqueueRequestsFromMapFunc}, an update maps both the old
 * and the new object, so that a reference that was removed reconciles its former target
 * too. Keys outside the controller's namespaces are ignored: the controller does not
 * cache them. A watch that maps across clusters keeps the cluster each request names and
 * drops the requests of clusters its controller does not run on.
 */
final class MappedWatchHandler implements ResourceEventHandler<KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(MappedWatchHandler.class);

	private final WatchingController controller;

	private final RequestMapper<KubernetesObject> mapper;

	private final boolean across;

	@SuppressWarnings("unchecked")
	MappedWatchHandler(WatchingController controller, MappedWatch<?> watch) {
		this(controller, (RequestMapper<KubernetesObject>) watch.mapper(), watch.isAcross());
	}

	MappedWatchHandler(WatchingController controller, RequestMapper<KubernetesObject> mapper) {
		this(controller, mapper, false);
	}

	private MappedWatchHandler(WatchingController controller, RequestMapper<KubernetesObject> mapper, boolean across) {
		this.controller = controller;
		this.mapper = mapper;
		this.across = across;
	}

	@Override
	public void onAdd(KubernetesObject object) {
		enqueue(map(object, new LinkedHashSet<>()));
	}

	@Override
	public void onUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
		// one add per key, even when the old and the new object map to it
		enqueue(map(newObject, map(oldObject, new LinkedHashSet<>())));
	}

	@Override
	public void onDelete(KubernetesObject object, boolean finalStateUnknown) {
		enqueue(map(object, new LinkedHashSet<>()));
	}

	private Set<Request> map(KubernetesObject object, Set<Request> keys) {
		if (object == null) {
			return keys;
		}
		try {
			Collection<Request> mapped = this.mapper.map(object);
			if (mapped != null) {
				keys.addAll(mapped);
			}
		}
		catch (RuntimeException ex) {
			logger.error("Mapper of controller '{}' failed for {}; nothing enqueued for it", this.controller.name(),
					KubernetesObjects.describe(object), ex);
		}
		return keys;
	}

	private void enqueue(Set<Request> keys) {
		ClusterScope clusters = this.controller.definition().clusters();
		for (Request key : keys) {
			if (!this.controller.scope().contains(key)) {
				continue;
			}
			if (!this.across) {
				this.controller.keys().add(key);
			}
			else if (key.isLocal() ? clusters.includesLocal() : clusters.includesFleet()) {
				this.controller.across().add(key);
			}
			else {
				logger.debug("Mapper of controller '{}' returned {}, in a cluster it does not run on ({}); dropped",
						this.controller.name(), key, clusters);
			}
		}
	}

}
