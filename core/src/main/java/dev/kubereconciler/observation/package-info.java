/**
 * Micrometer Observations of reconciles and of the Kubernetes API requests made during
 * them, so that a tracing bridge shows one trace per reconcile with its API calls as
 * child spans.
 *
 * <p>
 * Public API: all. Micrometer's {@code micrometer-observation} is an optional dependency
 * of core: these types are loaded only when a manager is given
 * {@link ReconcileObservations} or an {@code ApiClient} the
 * {@link ApiRequestObservationInterceptor}.
 */
@NullMarked
package dev.kubereconciler.observation;

import org.jspecify.annotations.NullMarked;
