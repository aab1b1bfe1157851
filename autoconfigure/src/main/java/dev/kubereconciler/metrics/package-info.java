/**
 * Micrometer meters with controller-runtime's names, so that its dashboards and alerts work
 * unchanged.
 */
package dev.kubereconciler.metrics;
