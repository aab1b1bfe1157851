/**
 * Rate limiters with client-go semantics, the layered time abstraction they and the
 * engine run on ({@link dev.kubereconciler.ratelimit.Ticker},
 * {@link dev.kubereconciler.ratelimit.Sleeper},
 * {@link dev.kubereconciler.ratelimit.DelayScheduler}) and a storm simulator. Plain Java,
 * no Spring.
 */
@NullMarked
package dev.kubereconciler.ratelimit;

import org.jspecify.annotations.NullMarked;
