/**
 * Auto-configuration of the Actuator support: the {@code controllers} endpoint, the
 * health and readiness contributors, and the readiness group that includes them.
 *
 * <p>
 * Public API: the auto-configurations and their properties.
 */
@NullMarked
package dev.kubereconciler.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
