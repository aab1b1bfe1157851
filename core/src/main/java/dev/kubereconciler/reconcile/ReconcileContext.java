package dev.kubereconciler.reconcile;

import java.util.List;
import java.util.Optional;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.events.EventRecorder;

/**
 * What a reconcile can read and write: details of the reconcile, the informer caches of
 * the watched and owned types, writes through client-java, and Kubernetes Events.
 *
 * <p>
 * Reads return private copies. A write puts the server's answer into the cache view that
 * later reconciles read, unless the informer already holds a newer version, so the next
 * reconcile never reads an object older than its own last write.
 *
 * @param <T> the watched type
 */
public interface ReconcileContext<T extends KubernetesObject> {

	/**
	 * Return the namespace and name of the object being reconciled.
	 * @return the request
	 */
	Request request();

	/**
	 * Return how often this key failed (or asked for a rate-limited requeue) since it
	 * last succeeded.
	 * @return the number of failures so far
	 */
	int failures();

	/**
	 * Return why the key was queued.
	 * @return the trigger
	 */
	Trigger trigger();

	/**
	 * Read an object of a watched or owned type from the cache, or of a read-through type
	 * from the API server.
	 * @param <R> the model type
	 * @param type the model class
	 * @param namespace the namespace, empty for cluster-scoped objects
	 * @param name the name
	 * @return a copy of the object, or empty if the cache does not hold it
	 */
	<R extends KubernetesObject> Optional<R> get(Class<R> type, String namespace, String name);

	/**
	 * List the cached objects of a watched or owned type in a namespace that match a
	 * label selector; a read-through type is listed from the API server.
	 * @param <R> the model type
	 * @param type the model class
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector a selector in {@code kubectl -l} syntax, empty for everything
	 * @return copies of the objects
	 */
	<R extends KubernetesObject> List<R> list(Class<R> type, @Nullable String namespace, String labelSelector);

	/**
	 * List the cached objects of a watched or owned type that name an owner in their
	 * owner references, through an index of the informer rather than a scan.
	 * @param <R> the model type
	 * @param type the model class
	 * @param owner the owner
	 * @return copies of the owned objects
	 */
	<R extends KubernetesObject> List<R> owned(Class<R> type, KubernetesObject owner);

	/**
	 * List the objects of a type whose declared index holds a value, looked up in the
	 * informer's index rather than scanned, as controller-runtime's {@code List} with
	 * {@code client.MatchingFields}; what this controller wrote is found by its new
	 * values at once, as every read of the context is. For a read-through type the
	 * objects are listed from the API server and judged by the index's function.
	 * @param <R> the model type
	 * @param type the model class
	 * @param index the name of an index declared on the type
	 * @param value the value to look up
	 * @return copies of the objects
	 * @throws IllegalArgumentException if no index of that name is declared on the type
	 */
	<R extends KubernetesObject> List<R> listByIndex(Class<R> type, String index, String value);

	/**
	 * Create an object.
	 * @param <R> the model type
	 * @param object the object
	 * @return a private copy of the object the server stored
	 * @throws Exception if the server refuses it
	 */
	<R extends KubernetesObject> R create(R object) throws Exception;

	/**
	 * Replace an object; its resourceVersion makes a stale write fail with 409 Conflict.
	 * @param <R> the model type
	 * @param object the object
	 * @return a private copy of the object the server stored
	 * @throws Exception if the server refuses it
	 */
	<R extends KubernetesObject> R update(R object) throws Exception;

	/**
	 * Apply a JSON merge patch to an object.
	 * @param <R> the model type
	 * @param object the object to patch, which names it
	 * @param mergePatch the patch, as JSON
	 * @return a private copy of the object the server stored
	 * @throws Exception if the server refuses it
	 */
	<R extends KubernetesObject> R patch(R object, String mergePatch) throws Exception;

	/**
	 * Delete an object; one that is already gone is not an error.
	 * @param object the object to delete
	 * @return {@code true} if this call deleted it (or requested its deletion)
	 * @throws Exception if the server refuses it
	 */
	boolean delete(KubernetesObject object) throws Exception;

	/**
	 * Server-side apply an object, with the controller name as field manager, not forcing
	 * conflicts.
	 * @param <R> the model type
	 * @param object the fields this controller owns
	 * @return a private copy of the object the server stored
	 * @throws Exception if the server refuses it, for example on a field conflict
	 */
	default <R extends KubernetesObject> R apply(R object) throws Exception {
		return apply(object, false);
	}

	/**
	 * Server-side apply an object, with the controller name as field manager.
	 * @param <R> the model type
	 * @param object the fields this controller owns
	 * @param force whether to take over fields that other managers own
	 * @return a private copy of the object the server stored
	 * @throws Exception if the server refuses it
	 */
	<R extends KubernetesObject> R apply(R object, boolean force) throws Exception;

	/**
	 * Replace the status of an object through its {@code /status} subresource, also when
	 * the object has no status yet. A status equal to the cached one is not written: no
	 * request, and no update event that would reconcile the object again.
	 * @param <R> the model type
	 * @param object the object with the new status and the resourceVersion it was read at
	 * @return a private copy of the object the server stored, or the object itself when
	 * nothing was written
	 * @throws Exception if the server refuses it, for example with 409 Conflict
	 */
	<R extends KubernetesObject> R updateStatus(R object) throws Exception;

	/**
	 * Server-side apply the status of an object through its {@code /status} subresource,
	 * with the controller name as field manager.
	 * @param <R> the model type
	 * @param object the object, of which name, namespace and status are applied
	 * @param force whether to take over fields that other managers own
	 * @return a private copy of the object the server stored
	 * @throws Exception if the server refuses it
	 */
	<R extends KubernetesObject> R applyStatus(R object, boolean force) throws Exception;

	/**
	 * Server-side apply the status of an object, not forcing conflicts.
	 * @param <R> the model type
	 * @param object the object, of which name, namespace and status are applied
	 * @return a private copy of the object the server stored
	 * @throws Exception if the server refuses it
	 */
	default <R extends KubernetesObject> R applyStatus(R object) throws Exception {
		return applyStatus(object, false);
	}

	/**
	 * Make {@code owner} the controller owner of {@code owned}, with controller-runtime's
	 * rules: an object has at most one controller owner, and it must live in the owner's
	 * namespace unless the owner is cluster-scoped. Changes {@code owned} only; write it
	 * to make it count.
	 * @param owner the owner
	 * @param owned the owned object
	 * @throws AlreadyOwnedException if another object is already its controller owner
	 * @throws IllegalArgumentException if the namespaces do not allow the reference
	 */
	void setControllerReference(KubernetesObject owner, KubernetesObject owned);

	/**
	 * Return where the controller's dependents stand: the framework applied them before
	 * this reconcile was called, in their {@code dependsOn} order.
	 * @return the status; {@link DependentsStatus#NONE} for a controller without
	 * dependents
	 */
	default DependentsStatus dependents() {
		return DependentsStatus.NONE;
	}

	/**
	 * Return the recorder of Kubernetes Events for this controller.
	 * @return the recorder
	 */
	EventRecorder events();

}
