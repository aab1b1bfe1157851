/**
 * Rate limiters with client-go semantics, an injectable {@link dev.kubereconciler.ratelimit.Ticker}
 * and a storm simulator. Plain Java, no Spring.
 */
@NullMarked
package dev.kubereconciler.ratelimit;

import org.jspecify.annotations.NullMarked;
