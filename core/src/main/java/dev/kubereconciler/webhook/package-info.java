/**
 * Admission and conversion webhooks served by the application itself: validators,
 * defaulters and version converters of Kubernetes types, the HTTPS server that answers
 * the API server's {@code AdmissionReview} and {@code ConversionReview} calls, and the
 * webhook configurations that point the API server at it.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.webhook.AdmissionValidator},
 * {@link dev.kubereconciler.webhook.AdmissionDefaulter},
 * {@link dev.kubereconciler.webhook.VersionConverter} and the types they take and return,
 * which users implement; {@link dev.kubereconciler.webhook.Webhooks},
 * {@link dev.kubereconciler.webhook.WebhookServer} and
 * {@link dev.kubereconciler.webhook.WebhookConfigurations}, which the Spring glue (or an
 * application without Spring) wires, and {@link dev.kubereconciler.webhook.Pem}, which
 * writes their CA bundle. The review codecs and the JSON patch of a defaulter's changes
 * are package-private.
 */
@NullMarked
package dev.kubereconciler.webhook;

import org.jspecify.annotations.NullMarked;
