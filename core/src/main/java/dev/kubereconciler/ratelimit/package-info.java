/**
 * Rate limiters with client-go semantics: the
 * {@link dev.kubereconciler.ratelimit.RateLimiter} SPI, the factories of
 * {@link dev.kubereconciler.ratelimit.RateLimiters}, the token bucket with Go's
 * reservation semantics, their state descriptions and a storm simulator.
 *
 * <p>
 * Public API: the public types. The limiters behind the factories and their helpers are
 * package-private.
 */
@NullMarked
package dev.kubereconciler.ratelimit;

import org.jspecify.annotations.NullMarked;
