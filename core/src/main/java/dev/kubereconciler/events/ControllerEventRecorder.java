package dev.kubereconciler.events;

import io.kubernetes.client.common.KubernetesObject;

/**
 * The recorder of one controller, handed out by
 * {@link EventRecorders#forController(String)}.
 */
final class ControllerEventRecorder implements EventRecorder {

	private static final String NORMAL = "Normal";

	private static final String WARNING = "Warning";

	private final EventRecorders recorders;

	private final String controller;

	ControllerEventRecorder(EventRecorders recorders, String controller) {
		this.recorders = recorders;
		this.controller = controller;
	}

	@Override
	public void normal(KubernetesObject regarding, String reason, String action, String note) {
		this.recorders.record(this.controller, regarding, NORMAL, reason, action, note);
	}

	@Override
	public void warning(KubernetesObject regarding, String reason, String action, String note) {
		this.recorders.record(this.controller, regarding, WARNING, reason, action, note);
	}

	@Override
	public String toString() {
		return "EventRecorder of controller '" + this.controller + "'";
	}

}
