/**
 * Rate limiters with client-go semantics, the layered time abstraction they and the
 * engine run on ({@link dev.kubereconciler.time.Ticker},
 * {@link dev.kubereconciler.time.Sleeper},
 * {@link dev.kubereconciler.time.DelayScheduler}) and a storm simulator. Plain Java, no
 * Spring.
 */
@NullMarked
package dev.kubereconciler.ratelimit;

import org.jspecify.annotations.NullMarked;
