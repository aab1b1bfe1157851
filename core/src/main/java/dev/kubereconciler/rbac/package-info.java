/**
 * The RBAC rules an application's controllers need, derived from their definitions and
 * rendered as Kubernetes Roles or ClusterRoles. Plain Java, no Spring; sits between
 * {@code actuate} and {@code metrics}, and imports {@code controller} only.
 */
@NullMarked
package dev.kubereconciler.rbac;

import org.jspecify.annotations.NullMarked;
