package dev.kubereconciler.events;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Records Kubernetes Events about objects a controller reconciles.
 */
public interface EventRecorder {

	/**
	 * Record a {@code Normal} event.
	 * @param regarding the object the event is about
	 * @param reason a short, machine-readable reason in UpperCamelCase
	 * @param action what the controller did or failed to do
	 * @param note a human-readable description
	 */
	void normal(KubernetesObject regarding, String reason, String action, String note);

	/**
	 * Record a {@code Warning} event.
	 * @param regarding the object the event is about
	 * @param reason a short, machine-readable reason in UpperCamelCase
	 * @param action what the controller did or failed to do
	 * @param note a human-readable description
	 */
	void warning(KubernetesObject regarding, String reason, String action, String note);

	/**
	 * Return a recorder that drops every event.
	 * @return the recorder
	 */
	static EventRecorder noop() {
		return NoopEventRecorder.INSTANCE;
	}

}
