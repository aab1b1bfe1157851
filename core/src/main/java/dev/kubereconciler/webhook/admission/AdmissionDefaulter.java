package dev.kubereconciler.webhook.admission;

/**
 * Sets defaults on the objects of one Kubernetes type before the API server validates and
 * stores them, as controller-runtime's {@code CustomDefaulter} does: an application
 * registers one per type, and kube-reconciler serves it at
 * {@code /mutate-<group with dots as dashes>-<version>-<kind in lower case>}, answering
 * with the JSON patch from the object it received to the object as changed here.
 *
 * <p>
 * Called on creates and updates. An exception denies the request with its message.
 *
 * @param <T> the model type, such as a {@code CustomResource} subclass or
 * {@code V1ConfigMap}
 */
@FunctionalInterface
public interface AdmissionDefaulter<T> {

	/**
	 * Change the object in place.
	 * @param object the object as received; its changes are what the API server stores
	 * @param request what the API server says about the request
	 */
	void applyDefaults(T object, AdmissionRequest request);

}
