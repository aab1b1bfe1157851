package dev.kubereconciler.events;

import io.kubernetes.client.common.KubernetesObject;

/**
 * An {@link EventRecorder} that drops every event.
 */
final class NoopEventRecorder implements EventRecorder {

	static final NoopEventRecorder INSTANCE = new NoopEventRecorder();

	private NoopEventRecorder() {
	}

	@Override
	public void normal(KubernetesObject regarding, String reason, String action, String note) {
	}

	@Override
	public void warning(KubernetesObject regarding, String reason, String action, String note) {
	}

}
