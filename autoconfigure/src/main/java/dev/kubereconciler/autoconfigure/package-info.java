/**
 * Spring Boot auto-configuration of the engine: {@code kube-reconciler.*} properties, the
 * controller manager built from the resolved definitions and run as a smart lifecycle,
 * rate limiter beans and customizers, leader election and sharding settings, metrics, and
 * failure analyzers that name the property and the fix.
 *
 * <p>
 * Public API: the auto-configurations, properties and customizers; the rest is public
 * only for the sub-packages. The sub-packages build on this one and it imports none of
 * them: a bean that needs a sub-package's type is declared by that sub-package's
 * auto-configuration.
 */
@NullMarked
package dev.kubereconciler.autoconfigure;

import org.jspecify.annotations.NullMarked;
