/**
 * A simulated paid external API, with latency, failures and a call counter.
 */
@NullMarked
package dev.kubereconciler.sample.external;

import org.jspecify.annotations.NullMarked;
