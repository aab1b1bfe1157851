/**
 * Admission and conversion webhooks served by the application itself, by concern:
 * {@code admission} (validators and defaulters), {@code conversion} (version converters),
 * {@code server} (the HTTPS server and its certificates) and {@code registration} (the
 * webhook configurations that point the API server at it). This package holds what ties
 * them together.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.webhook.Webhooks}, the application's webhooks and
 * their paths, built from its validators, defaulters and converters. Dependencies point
 * from {@code registration} to this package, from this package to {@code admission} and
 * {@code conversion}, and from those to {@code server}; never back.
 */
@NullMarked
package dev.kubereconciler.webhook;

import org.jspecify.annotations.NullMarked;
