package dev.kubereconciler.webhook.admission;

/**
 * Validates the objects of one Kubernetes type before the API server stores them, as
 * controller-runtime's {@code CustomValidator} does: an application registers one per
 * type, and kube-reconciler serves it at
 * {@code /validate-<group with dots as dashes>-<version>-<kind in lower case>}.
 *
 * <p>
 * Each method returns {@link AdmissionResult#allowed()}, a denial with its message, or
 * either with warnings. An exception is a denial too: its message reaches the client, and
 * the API server never sees a stack trace. Deletes are sent to the webhook only when the
 * implementation overrides {@link #validateDelete(Object, AdmissionRequest)}.
 *
 * @param <T> the model type, such as a {@code CustomResource} subclass or
 * {@code V1ConfigMap}
 */
public interface AdmissionValidator<T> {

	/**
	 * Validate an object about to be created.
	 * @param object the object, after every mutating webhook
	 * @param request what the API server says about the request
	 * @return the result
	 */
	default AdmissionResult validateCreate(T object, AdmissionRequest request) {
		return AdmissionResult.allowed();
	}

	/**
	 * Validate an update.
	 * @param oldObject the object as stored
	 * @param newObject the object about to be stored
	 * @param request what the API server says about the request
	 * @return the result
	 */
	default AdmissionResult validateUpdate(T oldObject, T newObject, AdmissionRequest request) {
		return AdmissionResult.allowed();
	}

	/**
	 * Validate a delete.
	 * @param oldObject the object as stored
	 * @param request what the API server says about the request
	 * @return the result
	 */
	default AdmissionResult validateDelete(T oldObject, AdmissionRequest request) {
		return AdmissionResult.allowed();
	}

}
