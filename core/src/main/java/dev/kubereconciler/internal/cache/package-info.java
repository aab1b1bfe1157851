/**
 * The informer caches of a manager: one informer per watched type, the event handlers
 * that route its events to each controller's
 * {@link dev.kubereconciler.internal.cache.KeySink}, and the cache views that reconcilers
 * read, overlaid with their own writes; what the cache options change (a type's own
 * selectors, declared indexes, mappers by index) and the reads of the read-through types.
 *
 * <p>
 * Internal: no public API. Its public types serve the manager and the reconcile context
 * only.
 */
@NullMarked
package dev.kubereconciler.internal.cache;

import org.jspecify.annotations.NullMarked;
