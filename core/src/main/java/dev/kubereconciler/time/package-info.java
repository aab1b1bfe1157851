/**
 * Time as the engine reads it: a {@link dev.kubereconciler.time.Ticker} that reads, a
 * {@link dev.kubereconciler.time.Sleeper} that also waits, and a
 * {@link dev.kubereconciler.time.DelayScheduler} that also runs an action at a deadline,
 * so that tests drive limiters, queues and timeouts with a manual clock, as client-go's
 * fake clock does.
 *
 * <p>
 * Public API: all of it. It depends on no other kube-reconciler package.
 */
@NullMarked
package dev.kubereconciler.time;

import org.jspecify.annotations.NullMarked;
