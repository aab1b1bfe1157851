package dev.kubereconciler.webhook.server;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link SelfSignedCertificate}; {@link WebhookServerTests} shows that HTTPS
 * clients accept what it makes.
 */
class SelfSignedCertificateTests {

	private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

	@Test
	void theServingCertificateIsForLocalhostAnd127001AndSignedByTheAuthorityOfTheCaBundle() throws Exception {
		SelfSignedCertificate certificate = SelfSignedCertificate.generate();
		X509Certificate authority = TlsClients.x509(certificate.caBundle());
		X509Certificate serving = TlsClients.x509(certificate.certificatePem());
		serving.verify(authority.getPublicKey());
		authority.verify(authority.getPublicKey());
		assertThat(serving.getIssuerX500Principal()).isEqualTo(authority.getSubjectX500Principal());
		assertThat(serving.getSubjectAlternativeNames()).containsExactly(List.of(2, "localhost"),
				List.of(7, "127.0.0.1"));
		assertThat(serving.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
		assertThat(serving.getBasicConstraints()).isEqualTo(-1);
		assertThat(authority.getBasicConstraints()).isNotNegative();
		assertThat(authority.getKeyUsage()[5]).as("keyCertSign").isTrue();
		assertThat(serving.getPublicKey().getAlgorithm()).isEqualTo("EC");
		assertThat(serving.getSigAlgName()).isEqualTo("SHA256withECDSA");
	}

	@Test
	void theCertificatesAreValidForAYearFromAnHourBeforeTheirCreation() {
		SelfSignedCertificate certificate = SelfSignedCertificate.generate(List.of("localhost"), List.of(),
				Clock.fixed(NOW, ZoneOffset.UTC));
		for (X509Certificate x509 : List.of(TlsClients.x509(certificate.caBundle()),
				TlsClients.x509(certificate.certificatePem()))) {
			assertThat(x509.getNotBefore().toInstant()).isEqualTo(NOW.minus(Duration.ofHours(1)));
			assertThat(x509.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofDays(365)));
		}
	}

	@Test
	void otherNamesReplaceTheDefaultsAndTheFirstIsTheCommonName() throws Exception {
		SelfSignedCertificate certificate = SelfSignedCertificate
			.generate(List.of("widgets.system.svc", "widgets.system.svc.cluster.local"), List.of());
		X509Certificate serving = TlsClients.x509(certificate.certificatePem());
		assertThat(serving.getSubjectAlternativeNames()).containsExactly(List.of(2, "widgets.system.svc"),
				List.of(2, "widgets.system.svc.cluster.local"));
		assertThat(serving.getSubjectX500Principal().getName()).isEqualTo("CN=widgets.system.svc");
	}

	@Test
	void aCertificateWithoutANameIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> SelfSignedCertificate.generate(List.of(), List.of()));
	}

	@Test
	void thePrivateKeyPemIsThePkcs8KeyOfTheServingCertificate() throws Exception {
		SelfSignedCertificate certificate = SelfSignedCertificate.generate();
		String pem = certificate.privateKeyPem();
		assertThat(pem).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("\n-----END PRIVATE KEY-----\n");
		String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replace("\n", "");
		PrivateKey key = KeyFactory.getInstance("EC")
			.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
		Signature signer = Signature.getInstance("SHA256withECDSA");
		signer.initSign(key);
		signer.update("proof".getBytes(StandardCharsets.UTF_8));
		byte[] signature = signer.sign();
		Signature verifier = Signature.getInstance("SHA256withECDSA");
		verifier.initVerify(TlsClients.x509(certificate.certificatePem()).getPublicKey());
		verifier.update("proof".getBytes(StandardCharsets.UTF_8));
		assertThat(verifier.verify(signature)).isTrue();
	}

	@Test
	void eachGenerationHasAnAuthorityOfItsOwn() {
		SelfSignedCertificate one = SelfSignedCertificate.generate();
		SelfSignedCertificate other = SelfSignedCertificate.generate();
		X509Certificate otherAuthority = TlsClients.x509(other.caBundle());
		assertThat(otherAuthority.getSubjectX500Principal())
			.isNotEqualTo(TlsClients.x509(one.caBundle()).getSubjectX500Principal());
		assertThatExceptionOfType(SignatureException.class)
			.isThrownBy(() -> TlsClients.x509(one.certificatePem()).verify(otherAuthority.getPublicKey()));
	}

	@Test
	void aRenewalIsANewKeyAndSerialForTheSameNamesFromTheSameAuthority() throws Exception {
		SelfSignedCertificate certificate = SelfSignedCertificate.generate(List.of("localhost"), List.of(),
				Clock.fixed(NOW, ZoneOffset.UTC));
		SelfSignedCertificate renewed = certificate.renew();
		X509Certificate before = TlsClients.x509(certificate.certificatePem());
		X509Certificate after = TlsClients.x509(renewed.certificatePem());
		assertThat(renewed.caBundle()).isEqualTo(certificate.caBundle());
		after.verify(TlsClients.x509(certificate.caBundle()).getPublicKey());
		assertThat(after.getSerialNumber()).isNotEqualTo(before.getSerialNumber());
		assertThat(after.getPublicKey()).isNotEqualTo(before.getPublicKey());
		assertThat(renewed.privateKeyPem()).isNotEqualTo(certificate.privateKeyPem());
		assertThat(after.getSubjectAlternativeNames()).containsExactly(List.of(2, "localhost"));
		assertThat(after.getSubjectX500Principal()).isEqualTo(before.getSubjectX500Principal());
		assertThat(after.getNotBefore()).isEqualTo(before.getNotBefore());
		assertThat(after.getNotAfter()).isEqualTo(before.getNotAfter());
		assertThat(renewed.sslContext()).isNotSameAs(certificate.sslContext());
	}

}
