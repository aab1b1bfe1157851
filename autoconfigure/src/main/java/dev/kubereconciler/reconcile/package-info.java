/**
 * Public reconcile types: {@code @Reconciler}, {@link dev.kubereconciler.reconcile.Request} and
 * {@link dev.kubereconciler.reconcile.Result}.
 */
package dev.kubereconciler.reconcile;
