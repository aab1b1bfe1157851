/**
 * The reconcile context: reads through the cache views, writes through the API client
 * with the controller as field manager, private copies of cached objects, and the
 * finalizer and cleanup around a reconcile.
 *
 * <p>
 * Internal: no public API. Its public types serve the manager and the workers only.
 */
@NullMarked
package dev.kubereconciler.internal.context;

import org.jspecify.annotations.NullMarked;
