/**
 * A JUnit 5 harness that runs a real etcd and kube-apiserver on loopback, envtest-style.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.test.KubernetesTest} and its extension, the
 * {@link dev.kubereconciler.test.KubernetesTestServer} with its assets and namespaces,
 * the Spring wiring ({@link dev.kubereconciler.test.KubernetesTestConfiguration},
 * {@link dev.kubereconciler.test.LocalApiServerConfiguration}) and the envtest downloader
 * behind {@code ./dev setup}. The package-private types are internal. The RBAC proof that
 * runs after a Spring test class is in {@link dev.kubereconciler.test.rbac}; the pod
 * runner that runs a Deployment's replicas as local processes is in
 * {@link dev.kubereconciler.test.deploy}.
 */
@NullMarked
package dev.kubereconciler.test;

import org.jspecify.annotations.NullMarked;
