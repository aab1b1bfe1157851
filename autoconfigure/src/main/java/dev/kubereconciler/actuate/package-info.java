/**
 * The {@code controllers} Actuator endpoint and health indicator.
 */
@NullMarked
package dev.kubereconciler.actuate;

import org.jspecify.annotations.NullMarked;
