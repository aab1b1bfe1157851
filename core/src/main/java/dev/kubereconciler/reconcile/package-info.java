/**
 * What a reconciler touches: {@code @Reconciler},
 * {@link dev.kubereconciler.reconcile.Request},
 * {@link dev.kubereconciler.reconcile.Result}, the
 * {@link dev.kubereconciler.reconcile.ReconcileContext} it reads and writes through, the
 * reconcile function types, event filters, mapped watches, the terminal error, and the
 * base class of custom resource models
 * ({@link dev.kubereconciler.reconcile.CustomResource}).
 *
 * <p>
 * Public API: all of it.
 */
@NullMarked
package dev.kubereconciler.reconcile;

import org.jspecify.annotations.NullMarked;
