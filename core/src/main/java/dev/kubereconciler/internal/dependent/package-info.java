/**
 * The dependents' machinery: applies a controller's dependents in {@code dependsOn} order
 * by server-side apply, waits for their readiness, prunes what is no longer wanted, and
 * keeps the primary's {@code Ready} condition.
 *
 * <p>
 * Internal: no public API. Its public types serve the reconcile context only.
 */
@NullMarked
package dev.kubereconciler.internal.dependent;

import org.jspecify.annotations.NullMarked;
