/**
 * Kubernetes Events ({@code events.k8s.io/v1}) written by controllers, aggregated into
 * series and rate-limited per object as client-go's recorders do. It depends only on
 * {@code time}, which runs its series jobs, so that every other package may use it.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.events.EventRecorder}, its factory
 * {@link dev.kubereconciler.events.EventRecorders}, the destination they write to and the
 * listener of what they write and drop; the series cache, spam filter and writer are
 * package-private.
 */
@NullMarked
package dev.kubereconciler.events;

import org.jspecify.annotations.NullMarked;
