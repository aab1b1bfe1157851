/**
 * Points the API server at the webhook server: the validating and mutating webhook
 * configurations, and the {@code spec.conversion} of the CRDs whose versions it converts,
 * applied at startup.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.webhook.registration.WebhookConfigurations} and
 * {@link dev.kubereconciler.webhook.registration.WebhookRegistration}, which the Spring
 * glue (or an application without Spring) wires.
 */
@NullMarked
package dev.kubereconciler.webhook.registration;

import org.jspecify.annotations.NullMarked;
