/**
 * cert-manager's part of a cluster, for tests: Certificates issued into their Secrets by
 * a selfSigned or CA Issuer, renewed on demand, and their CA injected into the objects
 * annotated {@code cert-manager.io/inject-ca-from}, as cert-manager's CA injector does.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.test.certmanager.CertificateIssuer}, the
 * {@link dev.kubereconciler.test.certmanager.IssuedCertificate} it returns and
 * {@link dev.kubereconciler.test.certmanager.CertManagerCrds}, the minimal CRDs it needs
 * on the server. The package-private types are internal.
 */
@NullMarked
package dev.kubereconciler.test.certmanager;

import org.jspecify.annotations.NullMarked;
