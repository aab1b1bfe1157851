/**
 * The HTTPS server that answers the API server's webhook calls, one endpoint per path,
 * and its certificates: the rotating TLS context, a self-signed certificate for
 * development and tests, and PEM encoding.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.webhook.server.WebhookServer},
 * {@link dev.kubereconciler.webhook.server.WebhookEndpoint},
 * {@link dev.kubereconciler.webhook.server.WebhookListener},
 * {@link dev.kubereconciler.webhook.server.SelfSignedCertificate} and
 * {@link dev.kubereconciler.webhook.server.Pem}, which the Spring glue (or an application
 * without Spring) wires. The HTTP handler, the request threads and the rotating TLS
 * context are package-private.
 */
@NullMarked
package dev.kubereconciler.webhook.server;

import org.jspecify.annotations.NullMarked;
