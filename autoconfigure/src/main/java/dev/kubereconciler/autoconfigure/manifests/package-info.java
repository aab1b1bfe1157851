/**
 * The Kubernetes manifests of an application: the RBAC rules its controllers need, and
 * the ServiceAccount, Deployment and Service that run it, written by
 * {@link dev.kubereconciler.autoconfigure.manifests.KubernetesManifestsGenerator} at
 * build time.
 *
 * <p>
 * Public API: the auto-configuration, its properties, the customizer and the generator's
 * command line.
 */
@NullMarked
package dev.kubereconciler.autoconfigure.manifests;

import org.jspecify.annotations.NullMarked;
