/**
 * Kubernetes Events ({@code events.k8s.io/v1}) written by controllers, aggregated into
 * series and rate-limited per object as client-go's recorders do; depends on no other
 * kube-reconciler package, so that every other package may use it.
 */
@NullMarked
package dev.kubereconciler.events;

import org.jspecify.annotations.NullMarked;
