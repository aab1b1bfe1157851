package dev.kubereconciler.test.certmanager;

import java.time.Duration;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests that {@link CertificateSpec} reads a Certificate with cert-manager's defaults and
 * names the field of a bad one.
 */
class CertificateSpecTests {

	@Test
	void durationsAreReadAsGoWritesThem() {
		assertThat(CertificateSpec.parseGoDuration("2160h")).isEqualTo(Duration.ofDays(90));
		assertThat(CertificateSpec.parseGoDuration("1h30m0s")).isEqualTo(Duration.ofMinutes(90));
		assertThat(CertificateSpec.parseGoDuration("1.5h")).isEqualTo(Duration.ofMinutes(90));
		assertThat(CertificateSpec.parseGoDuration("250ms")).isEqualTo(Duration.ofMillis(250));
	}

	@Test
	void defaultsAreCertManagers() {
		CertificateSpec spec = CertificateSpec.of(certificate("""
				{"secretName": "tls", "issuerRef": {"name": "selfsigned"}}"""));
		assertThat(spec.duration()).isEqualTo(Duration.ofDays(90));
		assertThat(spec.renewBefore()).isEqualTo(Duration.ofDays(30));
		assertThat(spec.keyAlgorithm()).isEqualTo("RSA");
		assertThat(spec.keyEncoding()).isEqualTo("PKCS1");
		assertThat(spec.rotationPolicy()).isEqualTo("Always");
		assertThat(spec.issuerKind()).isEqualTo("Issuer");
		assertThat(spec.usages()).containsExactly("digital signature", "key encipherment");
	}

	@Test
	void aBadCertificateIsRefusedNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> CertificateSpec.of(certificate("""
				{"issuerRef": {"name": "selfsigned"}}""")))
			.withMessageContaining("Certificate red/webhook has no spec.secretName");
		assertThatIllegalArgumentException().isThrownBy(() -> CertificateSpec.of(certificate("""
				{"secretName": "tls", "issuerRef": {"name": "selfsigned"}, "duration": "90d"}""")))
			.withMessageContaining("Certificate red/webhook has an invalid spec.duration: '90d' is not a duration");
	}

	private static JsonObject certificate(String spec) {
		JsonObject certificate = JsonParser.parseString("""
				{"metadata": {"namespace": "red", "name": "webhook"}}""").getAsJsonObject();
		certificate.add("spec", JsonParser.parseString(spec));
		return certificate;
	}

}
