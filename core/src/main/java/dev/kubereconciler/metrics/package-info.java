/**
 * Micrometer meters with controller-runtime's names, so that its dashboards and alerts
 * work unchanged.
 *
 * <p>
 * Public API: the meter binders; the meters of one controller, the depth by priority and
 * the bucket gauges are package-private.
 */
@NullMarked
package dev.kubereconciler.metrics;

import org.jspecify.annotations.NullMarked;
