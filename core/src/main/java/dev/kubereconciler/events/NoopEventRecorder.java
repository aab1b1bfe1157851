package dev.kubereconciler.events;

import io.kubernetes.client.common.KubernetesObject;

/**
 * The recorder of {@link EventRecorder#noop()}.
 */
enum NoopEventRecorder implements EventRecorder {

	INSTANCE;

	@Override
	public void normal(KubernetesObject regarding, String reason, String action, String note) {
	}

	@Override
	public void warning(KubernetesObject regarding, String reason, String action, String note) {
	}

}
