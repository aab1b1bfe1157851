package dev.kubereconciler.test;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The key material for one test server, made in memory: a CA, the API server's serving
 * certificate, an admin client certificate ({@code CN=admin, O=system:masters}) and the
 * service-account signing key pair.
 */
final class TestCertificates {

	static final String CA_CERTIFICATE = "ca.crt";

	// the names kube-apiserver looks for in --cert-dir when --tls-cert-file is not given
	static final String SERVING_CERTIFICATE = "apiserver.crt";

	static final String SERVING_KEY = "apiserver.key";

	static final String CLIENT_CERTIFICATE = "admin.crt";

	static final String CLIENT_KEY = "admin.key";

	static final String SERVICE_ACCOUNT_KEY = "sa-signer.key";

	static final String SERVICE_ACCOUNT_PUBLIC_KEY = "sa-signer.pub";

	// long enough for any test run, and the clock skew allowance keeps a slightly late VM
	// clock happy
	private static final Duration VALIDITY = Duration.ofDays(30);

	private static final Duration SKEW = Duration.ofHours(1);

	private static final String SIGNATURE = "SHA256withECDSA";

	// Bouncy Castle's EC private keys carry their public key in their encoding, as
	// OpenSSL's do; client-java's PEM reader fails on the JDK's, which leave it out. Made
	// once: it is slow to construct.
	private static final Provider BOUNCY_CASTLE = new BouncyCastleProvider();

	private final SecureRandom random = new SecureRandom();

	private final KeyPair caKey;

	private final X509Certificate caCertificate;

	private final KeyPair servingKey;

	private final X509Certificate servingCertificate;

	private final KeyPair clientKey;

	private final X509Certificate clientCertificate;

	private final KeyPair serviceAccountKey;

	private TestCertificates() throws GeneralSecurityException, OperatorCreationException, IOException {
		// ECDSA P-256 like envtest's tinyca: key generation is instant, unlike RSA
		this.caKey = ecKeyPair();
		X500Name caName = new X500Name("CN=kube-reconciler-test-ca");
		JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
		this.caCertificate = sign(caName, caName, this.caKey, (builder) -> {
			builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
			builder.addExtension(Extension.keyUsage, true,
					new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
			builder.addExtension(Extension.subjectKeyIdentifier, false,
					extensions.createSubjectKeyIdentifier(this.caKey.getPublic()));
		});
		this.servingKey = ecKeyPair();
		this.servingCertificate = sign(caName, new X500Name("CN=kube-apiserver"), this.servingKey, (builder) -> {
			leaf(builder, extensions, this.servingKey, KeyPurposeId.id_kp_serverAuth);
			builder.addExtension(Extension.subjectAlternativeName, false,
					new GeneralNames(new GeneralName[] { new GeneralName(GeneralName.dNSName, "localhost"),
							new GeneralName(GeneralName.dNSName, "kubernetes.default.svc"),
							new GeneralName(GeneralName.iPAddress, "127.0.0.1") }));
		});
		this.clientKey = ecKeyPair();
		this.clientCertificate = sign(caName, new X500Name("O=system:masters,CN=admin"), this.clientKey,
				(builder) -> leaf(builder, extensions, this.clientKey, KeyPurposeId.id_kp_clientAuth));
		// service-account tokens are RS256 by convention, so the signing key is RSA
		KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
		rsa.initialize(2048, this.random);
		this.serviceAccountKey = rsa.generateKeyPair();
	}

	/**
	 * Return the key material of this JVM, generated on first use. Nothing in it names a
	 * port, so every server can use the same, and only the first pays for the RSA key.
	 * @return the key material
	 */
	static TestCertificates ofThisJvm() {
		return OfThisJvm.CERTIFICATES;
	}

	/**
	 * Generate a fresh set of keys and certificates.
	 * @return the key material
	 */
	static TestCertificates generate() {
		try {
			return new TestCertificates();
		}
		catch (GeneralSecurityException | OperatorCreationException | IOException ex) {
			throw new IllegalStateException("Could not generate the test server's certificates", ex);
		}
	}

	/**
	 * Write every file the API server and a client need into a folder, PEM-encoded.
	 * @param folder the folder, usually the API server's {@code --cert-dir}
	 */
	void writeTo(Path folder) {
		write(folder.resolve(CA_CERTIFICATE), caCertificatePem());
		write(folder.resolve(SERVING_CERTIFICATE), pem(this.servingCertificate));
		write(folder.resolve(SERVING_KEY), pem(this.servingKey.getPrivate()));
		write(folder.resolve(CLIENT_CERTIFICATE), pem(this.clientCertificate));
		write(folder.resolve(CLIENT_KEY), pem(this.clientKey.getPrivate()));
		write(folder.resolve(SERVICE_ACCOUNT_KEY), pem(this.serviceAccountKey.getPrivate()));
		write(folder.resolve(SERVICE_ACCOUNT_PUBLIC_KEY), pem(this.serviceAccountKey.getPublic()));
	}

	/**
	 * Return a kubeconfig for the admin user with every certificate embedded, so that it
	 * works wherever it is copied.
	 * @param server the API server's URL
	 * @return the kubeconfig, as YAML
	 */
	String kubeconfig(URI server) {
		return kubeconfig(server, "admin", this.clientCertificate, this.clientKey);
	}

	/**
	 * Return a kubeconfig for a user of the API server's choosing, with a client
	 * certificate signed now by the CA: the API server authenticates it as that user in
	 * those groups, and RBAC judges its requests.
	 * @param server the API server's URL
	 * @param user the user name, the certificate's common name
	 * @param groups the groups, its organizations
	 * @return the kubeconfig, as YAML
	 */
	String kubeconfig(URI server, String user, List<String> groups) {
		try {
			KeyPair key = ecKeyPair();
			X500NameBuilder subject = new X500NameBuilder();
			groups.forEach((group) -> subject.addRDN(BCStyle.O, group));
			subject.addRDN(BCStyle.CN, user);
			X509Certificate certificate = sign(new X500Name("CN=kube-reconciler-test-ca"), subject.build(), key,
					(builder) -> leaf(builder, new JcaX509ExtensionUtils(), key, KeyPurposeId.id_kp_clientAuth));
			return kubeconfig(server, "user", certificate, key);
		}
		catch (GeneralSecurityException | OperatorCreationException | IOException ex) {
			throw new IllegalStateException("Could not make a client certificate for " + user, ex);
		}
	}

	private String kubeconfig(URI server, String userEntry, X509Certificate certificate, KeyPair key) {
		return """
				apiVersion: v1
				kind: Config
				clusters:
				- name: kube-reconciler-test
				  cluster:
				    server: %s
				    certificate-authority-data: %s
				users:
				- name: %s
				  user:
				    client-certificate-data: %s
				    client-key-data: %s
				contexts:
				- name: kube-reconciler-test
				  context:
				    cluster: kube-reconciler-test
				    user: %s
				current-context: kube-reconciler-test
				""".formatted(server, base64(caCertificatePem()), userEntry, base64(pem(certificate)),
				base64(pem(key.getPrivate())), userEntry);
	}

	private String caCertificatePem() {
		return pem(this.caCertificate);
	}

	private static String base64(String text) {
		return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
	}

	private KeyPair ecKeyPair() throws GeneralSecurityException {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", BOUNCY_CASTLE);
		generator.initialize(new ECGenParameterSpec("secp256r1"), this.random);
		return generator.generateKeyPair();
	}

	private X509Certificate sign(X500Name issuer, X500Name subject, KeyPair subjectKey, Extensions extensions)
			throws GeneralSecurityException, OperatorCreationException, IOException {
		Instant now = Instant.now();
		X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer, new BigInteger(127, this.random),
				Date.from(now.minus(SKEW)), Date.from(now.plus(VALIDITY)), subject, subjectKey.getPublic());
		extensions.addTo(builder);
		return new JcaX509CertificateConverter()
			.getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(this.caKey.getPrivate())));
	}

	private void leaf(X509v3CertificateBuilder builder, JcaX509ExtensionUtils extensions, KeyPair key,
			KeyPurposeId purpose) throws IOException, GeneralSecurityException {
		builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
		builder.addExtension(Extension.keyUsage, true,
				new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
		builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
		builder.addExtension(Extension.subjectKeyIdentifier, false,
				extensions.createSubjectKeyIdentifier(key.getPublic()));
		builder.addExtension(Extension.authorityKeyIdentifier, false,
				extensions.createAuthorityKeyIdentifier(this.caCertificate));
	}

	private static String pem(Object object) {
		StringWriter out = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
			writer.writeObject(object);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toString();
	}

	private static void write(Path file, String content) {
		try {
			Files.writeString(file, content, StandardCharsets.US_ASCII);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static final class OfThisJvm {

		// initialized when first used, once, by the JVM's class initialization lock
		static final TestCertificates CERTIFICATES = generate();

	}

	@FunctionalInterface
	private interface Extensions {

		void addTo(X509v3CertificateBuilder builder) throws IOException, GeneralSecurityException;

	}

}
