/**
 * The RBAC rules an application's controllers need, derived from their definitions and
 * rendered as Kubernetes Roles or ClusterRoles.
 *
 * <p>
 * Public API: all of it.
 */
@NullMarked
package dev.kubereconciler.rbac;

import org.jspecify.annotations.NullMarked;
