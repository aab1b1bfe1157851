/**
 * Micrometer meters with controller-runtime's names, so that its dashboards and alerts
 * work unchanged.
 */
@NullMarked
package dev.kubereconciler.metrics;

import org.jspecify.annotations.NullMarked;
