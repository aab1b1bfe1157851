/**
 * Spring Boot auto-configuration: {@code @Reconciler} methods and
 * {@code kube-reconciler.*} properties become managed controllers.
 */
@NullMarked
package dev.kubereconciler.autoconfigure;

import org.jspecify.annotations.NullMarked;
