/**
 * Dependent resources: the objects a primary object owns, declared with their desired
 * state, order, gates and readiness, which the controller applies by server-side apply,
 * waits for and prunes around each reconcile.
 *
 * <p>
 * Public API: all of it. What runs it lives in the internal context package.
 */
@NullMarked
package dev.kubereconciler.dependent;

import org.jspecify.annotations.NullMarked;
