package dev.kubereconciler.test.certmanager;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * A certificate {@link CertificateIssuer} wrote into the Secret a Certificate names, with
 * the PEM of each of the Secret's keys.
 *
 * @param namespace the Certificate's namespace
 * @param name the Certificate's name
 * @param secretName the Secret it was written to
 * @param tlsCrt {@code tls.crt}: the certificate, then the chain up to, not including, a
 * self-signed root
 * @param tlsKey {@code tls.key}: the private key
 * @param caCrt {@code ca.crt}: the CA that a client trusts, which the CA injector injects
 * @param notBefore when the certificate becomes valid
 * @param notAfter when it expires
 * @param renewalTime when cert-manager would renew it: {@code renewBefore} ahead of
 * {@code notAfter}
 * @param revision {@code status.revision} of the Certificate: 1 for the first issuance
 */
public record IssuedCertificate(String namespace, String name, String secretName, String tlsCrt, String tlsKey,
		String caCrt, Instant notBefore, Instant notAfter, Instant renewalTime, int revision) {

	/**
	 * Return the certificate itself, the first of {@link #tlsCrt()}.
	 * @return the certificate
	 */
	public X509Certificate certificate() {
		return CertificateSigner.readCertificates(this.tlsCrt).get(0);
	}

	/**
	 * Return the certificates of {@link #caCrt()}.
	 * @return the CA certificates
	 */
	public List<X509Certificate> caCertificates() {
		return CertificateSigner.readCertificates(this.caCrt);
	}

}
