package dev.kubereconciler.autoconfigure.keys;

import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

import dev.kubereconciler.autoconfigure.reconciler.ModelHints;

/**
 * The reflection kube-reconciler does whatever controllers an application has: binding
 * every properties class, which the unknown-key check binds even for a part that is
 * turned off, and the client-java models the engine itself reads and writes (Leases,
 * Events, API discovery, webhook registrations, errors).
 */
class KubeReconcilerRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		BindableRuntimeHintsRegistrar.forTypes(UnknownPropertyCheck.TREES.values().toArray(Class<?>[]::new))
			.registerHints(hints, classLoader);
		ModelHints.register(hints, V1Lease.class, EventsV1Event.class, V1APIResourceList.class, V1Status.class,
				V1ValidatingWebhookConfiguration.class, V1MutatingWebhookConfiguration.class);
	}

}
