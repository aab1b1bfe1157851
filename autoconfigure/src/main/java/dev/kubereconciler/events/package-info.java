/**
 * Kubernetes Events that controllers record about the objects they reconcile.
 */
package dev.kubereconciler.events;
