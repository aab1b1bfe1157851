package dev.kubereconciler.webhook.server;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Pem}.
 */
class PemTests {

	@Test
	void aCertificateIsOneBlockOf64CharacterLinesThatReadsBackAsTheSameCertificate() throws Exception {
		X509Certificate certificate = TlsClients.x509(SelfSignedCertificate.generate().caBundle());
		String pem = Pem.certificate(certificate);
		assertThat(pem).startsWith("-----BEGIN CERTIFICATE-----\n").endsWith("\n-----END CERTIFICATE-----\n");
		assertThat(pem.lines()).allSatisfy((line) -> assertThat(line).hasSizeLessThanOrEqualTo(64));
		assertThat(TlsClients.x509(pem)).isEqualTo(certificate);
	}

	@Test
	void theCaBundleOfASelfSignedCertificateIsItsAuthorityInPem() throws Exception {
		SelfSignedCertificate certificate = SelfSignedCertificate.generate();
		X509Certificate authority = TlsClients.x509(certificate.caBundle());
		assertThat(new String(certificate.caBundle(), StandardCharsets.US_ASCII)).isEqualTo(Pem.certificate(authority));
	}

	@Test
	void certificatesOneAfterTheOtherAreABundleOfThemAll() throws Exception {
		X509Certificate first = TlsClients.x509(SelfSignedCertificate.generate().caBundle());
		X509Certificate second = TlsClients.x509(SelfSignedCertificate.generate().caBundle());
		String bundle = Pem.certificate(first) + Pem.certificate(second);
		List<Certificate> read = List.copyOf(CertificateFactory.getInstance("X.509")
			.generateCertificates(new ByteArrayInputStream(bundle.getBytes(StandardCharsets.US_ASCII))));
		assertThat(read).containsExactly(first, second);
	}

}
