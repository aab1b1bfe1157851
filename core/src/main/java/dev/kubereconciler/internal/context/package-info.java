/**
 * The reconcile context: reads through the cache views, writes through the API client
 * with the controller as field manager, private copies of cached objects, the controller
 * owner reference, and the finalizer and cleanup around a reconcile.
 *
 * <p>
 * Internal: no public API. Its public types serve the manager, the workers and the
 * dependents' machinery of {@code internal.dependent} only.
 */
@NullMarked
package dev.kubereconciler.internal.context;

import org.jspecify.annotations.NullMarked;
