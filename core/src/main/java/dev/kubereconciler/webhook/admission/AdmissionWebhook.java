package dev.kubereconciler.webhook.admission;

import java.util.Set;

import dev.kubereconciler.cache.ResourceType;

/**
 * One admission webhook an application serves: what the API server must call, where, and
 * for which operations; what
 * {@link dev.kubereconciler.webhook.registration.WebhookConfigurations} turns into an
 * entry of a {@code ValidatingWebhookConfiguration} or
 * {@code MutatingWebhookConfiguration}.
 *
 * @param name the webhook's name in its configuration, such as
 * {@code vwidget-v1alpha1.sample.kubereconciler.dev}, which the API server quotes in its
 * errors
 * @param path the path it is served at, such as
 * {@code /validate-sample-kubereconciler-dev-v1alpha1-widget}
 * @param mutating whether it is a defaulter ({@code true}) or a validator
 * @param type the type it judges
 * @param operations the operations it is called for
 */
public record AdmissionWebhook(String name, String path, boolean mutating, ResourceType type,
		Set<AdmissionOperation> operations) {

	public AdmissionWebhook {
		operations = Set.copyOf(operations);
	}

}
