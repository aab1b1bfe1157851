package dev.kubereconciler.internal.cache;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.reconcile.KubernetesObjects;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;

/**
 * Enqueues the keys that a {@link MappedWatch}'s mapper returns for a changed object. As
 * controller-runtime's {@code EnqueueRequestsFromMapFunc}, an update maps both the old
 * and the new object, so that a reference that was removed reconciles its former target
 * too. Keys outside the controller's namespaces are ignored: the controller does not
 * cache them.
 */
final class MappedWatchHandler implements ResourceEventHandler<KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(MappedWatchHandler.class);

	private final WatchingController controller;

	private final RequestMapper<KubernetesObject> mapper;

	@SuppressWarnings("unchecked")
	MappedWatchHandler(WatchingController controller, MappedWatch<?> watch) {
		this(controller, (RequestMapper<KubernetesObject>) watch.mapper());
	}

	MappedWatchHandler(WatchingController controller, RequestMapper<KubernetesObject> mapper) {
		this.controller = controller;
		this.mapper = mapper;
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
		for (Request key : keys) {
			if (this.controller.scope().contains(key)) {
				this.controller.keys().add(key);
			}
		}
	}

}
