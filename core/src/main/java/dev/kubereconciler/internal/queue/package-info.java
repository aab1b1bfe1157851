/**
 * The work queue of a controller, with client-go's invariants: pending keys are
 * deduplicated, a key is never handed to two workers at once, delayed and rate-limited
 * adds, and controller-runtime's priorities.
 *
 * <p>
 * Internal: no public API. Its public types serve the controllers and the benchmarks
 * only.
 */
@NullMarked
package dev.kubereconciler.internal.queue;

import org.jspecify.annotations.NullMarked;
