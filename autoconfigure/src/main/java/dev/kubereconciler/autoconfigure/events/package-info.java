/**
 * Auto-configuration of the Kubernetes Events that controllers record: the
 * {@code kube-reconciler.events.*} properties and the recorders' writer threads.
 *
 * <p>
 * Public API: the auto-configuration and its properties.
 */
@NullMarked
package dev.kubereconciler.autoconfigure.events;

import org.jspecify.annotations.NullMarked;
