/**
 * The work queue of a controller: dedup of keys, delayed adds and rate-limited retries,
 * with client-go's invariants.
 */
@NullMarked
package dev.kubereconciler.queue;

import org.jspecify.annotations.NullMarked;
