/**
 * The {@code controllers} Actuator endpoint and health indicator.
 */
package dev.kubereconciler.actuate;
