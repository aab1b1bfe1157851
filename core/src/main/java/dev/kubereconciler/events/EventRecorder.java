package dev.kubereconciler.events;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Records Kubernetes Events about an object on behalf of one controller. Recording never
 * blocks and never throws: events that cannot be written are dropped and counted.
 */
public interface EventRecorder {

	/**
	 * Record a {@code Normal} event.
	 * @param regarding the object the event is about
	 * @param reason why the action was taken, in UpperCamelCase, such as
	 * {@code Provisioned}
	 * @param action what the controller did or failed to do, such as {@code Provision}
	 * @param note a human-readable description, at most 1 KiB (longer notes are cut)
	 */
	void normal(KubernetesObject regarding, String reason, String action, String note);

	/**
	 * Record a {@code Warning} event.
	 * @param regarding the object the event is about
	 * @param reason why the action was taken, in UpperCamelCase, such as
	 * {@code ProvisionFailed}
	 * @param action what the controller did or failed to do, such as {@code Provision}
	 * @param note a human-readable description, at most 1 KiB (longer notes are cut)
	 */
	void warning(KubernetesObject regarding, String reason, String action, String note);

	/**
	 * Return a recorder that records nothing.
	 * @return the recorder
	 */
	static EventRecorder noop() {
		return NoopEventRecorder.INSTANCE;
	}

}
