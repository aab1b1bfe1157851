/**
 * What can be seen of a controller's work queue: the
 * {@link dev.kubereconciler.queue.QueueObserver} hooks of client-go's metrics provider,
 * the {@link dev.kubereconciler.queue.QueueStats} read on demand, and the
 * {@link dev.kubereconciler.queue.Priorities} of the priority queue.
 *
 * <p>
 * Public API: all of it. The queue itself is in
 * {@code dev.kubereconciler.internal.queue}.
 */
@NullMarked
package dev.kubereconciler.queue;

import org.jspecify.annotations.NullMarked;
