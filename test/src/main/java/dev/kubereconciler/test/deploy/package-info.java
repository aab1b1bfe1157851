/**
 * Runs the Deployment of an application's manifests as local processes, the way a kubelet
 * runs its pods: environment, volumes, the ServiceAccount's identity, probes and
 * termination.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.test.deploy.DeployedApplication} and its
 * {@link dev.kubereconciler.test.deploy.Replica} handles. The package-private types are
 * internal.
 */
@NullMarked
package dev.kubereconciler.test.deploy;

import org.jspecify.annotations.NullMarked;
