/**
 * Micrometer meters with controller-runtime's and client-go's names, and Prometheus'
 * standard process metrics, so that the dashboards and alerts of Go operators work
 * unchanged.
 *
 * <p>
 * Public API: the meter binders, {@link dev.kubereconciler.metrics.RestClientMetrics} and
 * {@link dev.kubereconciler.metrics.StandardProcessMetrics}; the meters of one
 * controller, the depth by priority and the bucket gauges are package-private.
 */
@NullMarked
package dev.kubereconciler.metrics;

import org.jspecify.annotations.NullMarked;
