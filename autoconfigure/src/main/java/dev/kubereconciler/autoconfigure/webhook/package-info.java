/**
 * Auto-configuration of the admission and conversion webhooks: the
 * {@code kube-reconciler.webhooks.*} properties, the webhook beans collected by their
 * declared types, and the HTTPS server run as a smart lifecycle.
 *
 * <p>
 * Public API: the auto-configuration, its properties and the server's lifecycle bean.
 */
@NullMarked
package dev.kubereconciler.autoconfigure.webhook;

import org.jspecify.annotations.NullMarked;
