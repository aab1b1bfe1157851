package dev.kubereconciler.internal.cache;

import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.reconcile.UpdatePredicate;

/**
 * Applies a controller's event filters to the updates of its primary objects. The filters
 * are ANDed, as controller-runtime ANDs the predicates of a watch: an update reconciles
 * only when every filter passes it. They run in their declared order and the first that
 * drops an update is the one counted, so each dropped update is counted once.
 */
final class UpdateFilterChain {

	private static final Logger logger = LoggerFactory.getLogger(UpdateFilterChain.class);

	private final String controller;

	private final Map<String, UpdatePredicate> filters;

	private final ControllerListener listener;

	UpdateFilterChain(String controller, Map<String, UpdatePredicate> filters, ControllerListener listener) {
		this.controller = controller;
		this.filters = filters;
		this.listener = listener;
	}

	/**
	 * Return whether an update passes every filter, reporting the filter that dropped it.
	 * @param oldObject the object before the update
	 * @param newObject the object after it
	 * @return whether to reconcile
	 */
	boolean passes(KubernetesObject oldObject, KubernetesObject newObject) {
		if (oldObject == null || newObject == null) {
			return true;
		}
		for (Map.Entry<String, UpdatePredicate> filter : this.filters.entrySet()) {
			if (!test(filter, oldObject, newObject)) {
				this.listener.updateFiltered(this.controller, filter.getKey());
				return false;
			}
		}
		return true;
	}

	private boolean test(Map.Entry<String, UpdatePredicate> filter, KubernetesObject oldObject,
			KubernetesObject newObject) {
		try {
			return filter.getValue().test(oldObject, newObject);
		}
		catch (RuntimeException ex) {
			// a broken filter must not lose the event
			logger.warn("Event filter '{}' of controller '{}' failed; reconciling anyway", filter.getKey(),
					this.controller, ex);
			return true;
		}
	}

}
