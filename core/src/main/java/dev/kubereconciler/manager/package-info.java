/**
 * The controller manager: builds every controller of an application from its definitions,
 * starts the informers, waits for their caches, then runs the controllers, directly, once
 * elected leader, or on the partitions this replica holds.
 *
 * <p>
 * Public API: all of it.
 */
@NullMarked
package dev.kubereconciler.manager;

import org.jspecify.annotations.NullMarked;
