/**
 * A simulated paid external API, with latency, failures and a call counter.
 */
package dev.kubereconciler.sample.external;
