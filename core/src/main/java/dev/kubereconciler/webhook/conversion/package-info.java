/**
 * Conversion webhooks: the converters users write between the versions of a custom
 * resource, and the endpoint that answers the API server's {@code ConversionReview}s
 * through the hub version.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.webhook.conversion.VersionConverter}, which users
 * implement, {@link dev.kubereconciler.webhook.conversion.ConvertedResource}, and the
 * endpoint, which {@link dev.kubereconciler.webhook.Webhooks} builds.
 */
@NullMarked
package dev.kubereconciler.webhook.conversion;

import org.jspecify.annotations.NullMarked;
