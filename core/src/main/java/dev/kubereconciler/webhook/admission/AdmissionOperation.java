package dev.kubereconciler.webhook.admission;

/**
 * The operation an admission request is about, as the API server names it.
 */
public enum AdmissionOperation {

	/** An object is created. */
	CREATE,

	/** An object is replaced or patched. */
	UPDATE,

	/** An object is deleted. */
	DELETE,

	/**
	 * A subresource such as {@code pods/exec} is reached; not sent to kube-reconciler's
	 * webhooks.
	 */
	CONNECT

}
