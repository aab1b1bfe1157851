/**
 * The RBAC proof of {@code @KubernetesTest}: every request an application's client sent,
 * recorded, is checked against the RBAC rules the application derives, as the API
 * server's RBAC authorizer would decide it.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.test.rbac.RbacProofExtension} (which the
 * {@code @KubernetesTest} extension runs),
 * {@link dev.kubereconciler.test.rbac.RbacAuthorizer},
 * {@link dev.kubereconciler.test.rbac.ApiRequestRecorder} and the
 * {@link dev.kubereconciler.test.rbac.ApiRequest} it records. Nothing here is internal.
 */
@NullMarked
package dev.kubereconciler.test.rbac;

import org.jspecify.annotations.NullMarked;
