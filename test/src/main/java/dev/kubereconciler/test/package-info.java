/**
 * A JUnit 5 harness that runs a real etcd and kube-apiserver on loopback, envtest-style.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.test.KubernetesTest} and its extension, the
 * {@link dev.kubereconciler.test.KubernetesTestServer} with its assets and namespaces,
 * the Spring wiring ({@link dev.kubereconciler.test.KubernetesTestConfiguration},
 * {@link dev.kubereconciler.test.LocalApiServerConfiguration}), the RBAC proof
 * ({@link dev.kubereconciler.test.RbacProofExtension},
 * {@link dev.kubereconciler.test.RbacAuthorizer},
 * {@link dev.kubereconciler.test.ApiRequestRecorder}) and the envtest downloader behind
 * {@code ./dev setup}. The package-private types are internal.
 */
@NullMarked
package dev.kubereconciler.test;

import org.jspecify.annotations.NullMarked;
