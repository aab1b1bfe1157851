package dev.kubereconciler.manager;

import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Lister;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ManagerGate;

/**
 * What an application may read and operate of the running controllers: the controllers by
 * name, the manager gate and the informer caches. The Spring Boot starter exposes it as a
 * bean, so that application code needs nothing from the auto-configuration.
 */
public interface ControllerRegistry {

	/**
	 * Return every controller, by name, in registration order.
	 * @return the controllers
	 */
	Map<String, Controller> controllers();

	/**
	 * Return a controller by name.
	 * @param name the controller's name
	 * @return the controller, or {@code null} if there is none of that name
	 */
	@Nullable Controller controller(String name);

	/**
	 * Return the gate that every controller's workers pass before they reconcile.
	 * @return the manager gate
	 */
	ManagerGate gate();

	/**
	 * Return whether this instance runs its controllers: always when leader election is
	 * off.
	 * @return whether this instance is the leader
	 */
	boolean isLeader();

	/**
	 * Return a lister over the informer cache of a watched or owned type.
	 * @param <T> the model type
	 * @param type the model class, watched or owned by one of the controllers
	 * @return the lister
	 * @throws IllegalArgumentException if no controller watches or owns the type
	 */
	<T extends KubernetesObject> Lister<T> lister(Class<T> type);

	/**
	 * Return whether every informer has synced its cache.
	 * @return {@code true} once all caches synced
	 */
	boolean hasSynced();

}
