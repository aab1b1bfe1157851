/**
 * What a reconciler touches: {@code @Reconciler},
 * {@link dev.kubereconciler.reconcile.Request},
 * {@link dev.kubereconciler.reconcile.Result}, the
 * {@link dev.kubereconciler.reconcile.ReconcileContext} it reads and writes through, the
 * reconcile function types, update filters, mapped watches and the terminal error; custom
 * resource models are in {@code dev.kubereconciler.model}.
 *
 * <p>
 * Public API: all of it.
 */
@NullMarked
package dev.kubereconciler.reconcile;

import org.jspecify.annotations.NullMarked;
