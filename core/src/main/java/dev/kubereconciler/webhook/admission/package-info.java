/**
 * Admission webhooks: the validators and defaulters users write for Kubernetes types, and
 * the endpoints that answer the API server's {@code AdmissionReview}s with them.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.webhook.admission.AdmissionValidator},
 * {@link dev.kubereconciler.webhook.admission.AdmissionDefaulter} and the types they take
 * and return, which users implement, and the endpoints, which
 * {@link dev.kubereconciler.webhook.Webhooks} builds. The review codec and the JSON patch
 * of a defaulter's changes are package-private.
 */
@NullMarked
package dev.kubereconciler.webhook.admission;

import org.jspecify.annotations.NullMarked;
