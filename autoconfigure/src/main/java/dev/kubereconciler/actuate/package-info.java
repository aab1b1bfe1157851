/**
 * The {@code controllers} Actuator endpoint, its write operations, and the health and
 * readiness indicators of the controllers. Plain Spring Boot Actuator types, with no
 * auto-configuration of their own.
 *
 * <p>
 * Public API: the endpoint, its web extension and the indicators.
 */
@NullMarked
package dev.kubereconciler.actuate;

import org.jspecify.annotations.NullMarked;
