package dev.kubereconciler.test.certmanager;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.jspecify.annotations.Nullable;

/**
 * The Secret of a Certificate as cert-manager writes it: type {@code kubernetes.io/tls},
 * keys {@code tls.crt}, {@code tls.key} and {@code ca.crt}, and the annotations that say
 * what it was issued for, by which its cainjector and its re-issuance checks recognise
 * it.
 */
final class SecretContents {

	static final String TLS_CRT = "tls.crt";

	static final String TLS_KEY = "tls.key";

	static final String CA_CRT = "ca.crt";

	private SecretContents() {
	}

	/**
	 * Return the Secret to write for an issued certificate.
	 * @param spec the Certificate's spec
	 * @param issued the issued certificate
	 * @return the Secret
	 */
	static V1Secret secret(CertificateSpec spec, IssuedCertificate issued) {
		Map<String, String> annotations = new LinkedHashMap<>(spec.secretAnnotations());
		annotations.putAll(annotations(spec));
		Map<String, String> labels = new LinkedHashMap<>(spec.secretLabels());
		// cert-manager 1.12 on labels the Secrets it manages, to cache only those
		labels.put("controller.cert-manager.io/fao", "true");
		Map<String, byte[]> data = new LinkedHashMap<>();
		data.put(TLS_CRT, bytes(issued.tlsCrt()));
		data.put(TLS_KEY, bytes(issued.tlsKey()));
		data.put(CA_CRT, bytes(issued.caCrt()));
		return new V1Secret().apiVersion("v1")
			.kind("Secret")
			.type("kubernetes.io/tls")
			.metadata(new V1ObjectMeta().namespace(spec.namespace())
				.name(spec.secretName())
				.labels(labels)
				.annotations(annotations))
			.data(data);
	}

	/**
	 * Return whether a Secret holds a certificate issued for the spec as it is now, as
	 * cert-manager's re-issuance checks decide from the Secret's annotations.
	 * @param secret the Secret
	 * @param spec the spec
	 * @return whether no issuance is needed
	 */
	static boolean isUpToDate(V1Secret secret, CertificateSpec spec) {
		Map<String, String> found = Objects
			.requireNonNullElse(Objects.requireNonNull(secret.getMetadata()).getAnnotations(), Map.of());
		Map<String, byte[]> data = Objects.requireNonNullElse(secret.getData(), Map.of());
		return data.containsKey(TLS_CRT) && data.containsKey(TLS_KEY) && data.containsKey(CA_CRT)
				&& annotations(spec).entrySet()
					.stream()
					.allMatch((entry) -> entry.getValue().equals(found.get(entry.getKey())));
	}

	/**
	 * Read what a Secret holds.
	 * @param secret the Secret
	 * @param spec the Certificate's spec
	 * @param revision the Certificate's revision
	 * @return the certificate
	 */
	static IssuedCertificate read(V1Secret secret, CertificateSpec spec, int revision) {
		Map<String, byte[]> data = Objects.requireNonNull(secret.getData());
		X509Certificate certificate = certificates(secret).get(0);
		return new IssuedCertificate(spec.namespace(), spec.name(), spec.secretName(), text(data.get(TLS_CRT)),
				text(data.get(TLS_KEY)), text(data.get(CA_CRT)), certificate.getNotBefore().toInstant(),
				certificate.getNotAfter().toInstant(), certificate.getNotAfter().toInstant().minus(spec.renewBefore()),
				revision);
	}

	/**
	 * Return the certificates of a Secret's {@code tls.crt}.
	 * @param secret the Secret
	 * @return the certificates, or none
	 */
	static List<X509Certificate> certificates(V1Secret secret) {
		byte[] pem = Objects.requireNonNullElse(secret.getData(), Map.<String, byte[]>of()).get(TLS_CRT);
		return (pem != null) ? CertificateSigner.readCertificates(text(pem)) : List.of();
	}

	/**
	 * Return the private key of a Secret's {@code tls.key}.
	 * @param secret the Secret
	 * @return the key, or {@code null} when the Secret has none or no certificate
	 */
	static @Nullable PrivateKey privateKey(V1Secret secret) {
		byte[] pem = Objects.requireNonNullElse(secret.getData(), Map.<String, byte[]>of()).get(TLS_KEY);
		if (pem == null || certificates(secret).isEmpty()) {
			return null;
		}
		return CertificateSigner.readPrivateKey(text(pem));
	}

	private static Map<String, String> annotations(CertificateSpec spec) {
		Map<String, String> annotations = new LinkedHashMap<>();
		annotations.put(CaInjector.CERTIFICATE_NAME, spec.name());
		annotations.put("cert-manager.io/issuer-name", spec.issuerName());
		annotations.put("cert-manager.io/issuer-kind", spec.issuerKind());
		annotations.put("cert-manager.io/issuer-group", spec.issuerGroup());
		annotations.put("cert-manager.io/common-name", spec.commonName());
		annotations.put("cert-manager.io/alt-names", String.join(",", spec.dnsNames()));
		annotations.put("cert-manager.io/ip-sans", String.join(",", spec.ipAddresses()));
		annotations.put("cert-manager.io/uri-sans", String.join(",", spec.uris()));
		return annotations;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	private static String text(byte @Nullable [] bytes) {
		return new String(Objects.requireNonNull(bytes), StandardCharsets.US_ASCII);
	}

}
