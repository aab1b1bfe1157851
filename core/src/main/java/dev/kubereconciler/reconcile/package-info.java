/**
 * Public reconcile types: {@code @Reconciler},
 * {@link dev.kubereconciler.reconcile.Request} and
 * {@link dev.kubereconciler.reconcile.Result}.
 */
@NullMarked
package dev.kubereconciler.reconcile;

import org.jspecify.annotations.NullMarked;
