/**
 * Spring Boot auto-configuration: {@code @Reconciler} methods and {@code kube-reconciler.*}
 * properties become managed controllers.
 */
package dev.kubereconciler.autoconfigure;
