package dev.kubereconciler.webhook.server;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import org.bouncycastle.asn1.x500.X500Name;
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
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority and a serving certificate it signed, made in memory for
 * development and tests, where no cert-manager provides the webhook server's certificate.
 *
 * <p>
 * Both keys are ECDSA P-256, which generates at once where RSA takes a while. The
 * certificates are valid for {@value #VALIDITY_DAYS} days from an hour before their
 * creation, so that a peer whose clock lags a little accepts them. Give
 * {@link #caBundle()} to the webhook configurations' {@code caBundle} and
 * {@link #sslContext()} to the {@link WebhookServer}; {@link #renew()} issues the next
 * serving certificate from the same authority, to rotate it.
 */
public final class SelfSignedCertificate {

	/** How long the certificates are valid. */
	public static final int VALIDITY_DAYS = 365;

	// the allowance for a peer whose clock is behind ours
	private static final Duration BACKDATING = Duration.ofHours(1);

	private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";

	// the key store lives in memory only; PKCS #12 wants some password all the same
	private static final String KEY_STORE_PASSWORD = "webhook";

	private final X509Certificate authority;

	private final KeyPair authorityKey;

	private final List<String> dnsNames;

	private final List<InetAddress> ipAddresses;

	private final Clock clock;

	private final X509Certificate certificate;

	private final KeyPair key;

	private final SSLContext sslContext;

	private SelfSignedCertificate(X509Certificate authority, KeyPair authorityKey, List<String> dnsNames,
			List<InetAddress> ipAddresses, Clock clock)
			throws GeneralSecurityException, OperatorCreationException, IOException {
		this.authority = authority;
		this.authorityKey = authorityKey;
		this.dnsNames = dnsNames;
		this.ipAddresses = ipAddresses;
		this.clock = clock;
		SecureRandom random = new SecureRandom();
		Instant now = clock.instant();
		JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
		this.key = ecKeyPair(random);
		String commonName = dnsNames.isEmpty() ? ipAddresses.get(0).getHostAddress() : dnsNames.get(0);
		X509v3CertificateBuilder serving = new JcaX509v3CertificateBuilder(authority, serialNumber(random),
				Date.from(now.minus(BACKDATING)), Date.from(now.plus(Duration.ofDays(VALIDITY_DAYS))),
				new X500Name("CN=" + commonName), this.key.getPublic());
		serving.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
		serving.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
		serving.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
		serving.addExtension(Extension.subjectKeyIdentifier, false,
				extensions.createSubjectKeyIdentifier(this.key.getPublic()));
		serving.addExtension(Extension.authorityKeyIdentifier, false,
				extensions.createAuthorityKeyIdentifier(authority));
		// clients match the host they dialled against these names only, never the CN
		serving.addExtension(Extension.subjectAlternativeName, false, alternativeNames(dnsNames, ipAddresses));
		this.certificate = sign(serving, authorityKey);
		this.sslContext = sslContext(this.key, this.certificate);
	}

	private static SelfSignedCertificate withNewAuthority(List<String> dnsNames, List<InetAddress> ipAddresses,
			Clock clock) throws GeneralSecurityException, OperatorCreationException, IOException {
		SecureRandom random = new SecureRandom();
		Instant now = clock.instant();
		KeyPair authorityKey = ecKeyPair(random);
		// a name of its own, so that a trust store holding this authority and the one
		// it replaces finds the right one by name
		X500Name authorityName = new X500Name(
				"CN=kube-reconciler-webhook-ca-" + HexFormat.of().toHexDigits(random.nextInt()));
		X509v3CertificateBuilder authority = new JcaX509v3CertificateBuilder(authorityName, serialNumber(random),
				Date.from(now.minus(BACKDATING)), Date.from(now.plus(Duration.ofDays(VALIDITY_DAYS))), authorityName,
				authorityKey.getPublic());
		authority.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
		authority.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
		authority.addExtension(Extension.subjectKeyIdentifier, false,
				new JcaX509ExtensionUtils().createSubjectKeyIdentifier(authorityKey.getPublic()));
		return new SelfSignedCertificate(sign(authority, authorityKey), authorityKey, dnsNames, ipAddresses, clock);
	}

	/**
	 * Generate a certificate for {@code localhost} and {@code 127.0.0.1}.
	 * @return the certificate and its authority
	 */
	public static SelfSignedCertificate generate() {
		return generate(List.of("localhost"), List.of(ipv4Loopback()));
	}

	private static InetAddress ipv4Loopback() {
		try {
			// not getLoopbackAddress(), which is ::1 when the JVM prefers IPv6
			return InetAddress.getByAddress("localhost", new byte[] { 127, 0, 0, 1 });
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Generate a certificate for the given names, such as the webhook service's
	 * {@code <service>.<namespace>.svc}.
	 * @param dnsNames the host names the certificate is valid for
	 * @param ipAddresses the IP addresses the certificate is valid for
	 * @return the certificate and its authority
	 */
	public static SelfSignedCertificate generate(List<String> dnsNames, List<InetAddress> ipAddresses) {
		return generate(dnsNames, ipAddresses, Clock.systemUTC());
	}

	/**
	 * Generate a certificate for the given names, valid from the given clock's time.
	 * @param dnsNames the host names the certificate is valid for
	 * @param ipAddresses the IP addresses the certificate is valid for
	 * @param clock the clock that says when the certificates were made
	 * @return the certificate and its authority
	 * @throws IllegalArgumentException if neither a name nor an address is given
	 */
	public static SelfSignedCertificate generate(List<String> dnsNames, List<InetAddress> ipAddresses, Clock clock) {
		if (dnsNames.isEmpty() && ipAddresses.isEmpty()) {
			throw new IllegalArgumentException("A certificate needs at least one DNS name or IP address");
		}
		try {
			return withNewAuthority(List.copyOf(dnsNames), List.copyOf(ipAddresses), clock);
		}
		catch (GeneralSecurityException | OperatorCreationException | IOException ex) {
			throw new IllegalStateException("Could not generate a self-signed certificate", ex);
		}
	}

	/**
	 * Issue another serving certificate from the same authority, for the same names, with
	 * a key and serial number of its own and valid from the time of the clock this one
	 * was generated with, as cert-manager renews a certificate: a client that trusts
	 * {@link #caBundle()} accepts both, so a server can swap one for the other while the
	 * webhook configurations stay as they are.
	 * @return the new serving certificate and the same authority
	 */
	public SelfSignedCertificate renew() {
		try {
			return new SelfSignedCertificate(this.authority, this.authorityKey, this.dnsNames, this.ipAddresses,
					this.clock);
		}
		catch (GeneralSecurityException | OperatorCreationException | IOException ex) {
			throw new IllegalStateException("Could not renew a self-signed certificate", ex);
		}
	}

	/**
	 * Return the certificate of the authority that signed the serving certificate, as a
	 * webhook configuration's {@code caBundle} takes it; the Kubernetes client encodes it
	 * in base64.
	 * @return the PEM-encoded certificate, in US-ASCII
	 */
	public byte[] caBundle() {
		return pem(this.authority).getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Return the serving certificate.
	 * @return the PEM-encoded certificate
	 */
	public String certificatePem() {
		return pem(this.certificate);
	}

	/**
	 * Return the serving certificate's private key.
	 * @return the PEM-encoded PKCS #8 key
	 */
	public String privateKeyPem() {
		return Pem.encode("PRIVATE KEY", this.key.getPrivate().getEncoded());
	}

	/**
	 * Return a server-side TLS context that presents the serving certificate.
	 * @return the context, the same at every call
	 */
	public SSLContext sslContext() {
		return this.sslContext;
	}

	private static KeyPair ecKeyPair(SecureRandom random) throws GeneralSecurityException {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
		generator.initialize(new ECGenParameterSpec("secp256r1"), random);
		return generator.generateKeyPair();
	}

	private static BigInteger serialNumber(SecureRandom random) {
		// positive and at most 20 octets, as RFC 5280 asks
		return new BigInteger(127, random);
	}

	private static GeneralNames alternativeNames(List<String> dnsNames, List<InetAddress> ipAddresses) {
		List<GeneralName> names = new ArrayList<>();
		dnsNames.forEach((name) -> names.add(new GeneralName(GeneralName.dNSName, name)));
		ipAddresses.forEach((address) -> names.add(new GeneralName(GeneralName.iPAddress, address.getHostAddress())));
		return new GeneralNames(names.toArray(GeneralName[]::new));
	}

	private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
			throws GeneralSecurityException, OperatorCreationException {
		return new JcaX509CertificateConverter()
			.getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(signer.getPrivate())));
	}

	private static SSLContext sslContext(KeyPair key, X509Certificate certificate)
			throws GeneralSecurityException, IOException {
		KeyStore keyStore = KeyStore.getInstance("PKCS12");
		keyStore.load(null, null);
		char[] password = KEY_STORE_PASSWORD.toCharArray();
		keyStore.setKeyEntry("webhook", key.getPrivate(), password, new Certificate[] { certificate });
		KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keyManagers.init(keyStore, password);
		SSLContext context = SSLContext.getInstance("TLS");
		// no trust managers: the server asks for no client certificate
		context.init(keyManagers.getKeyManagers(), null, null);
		return context;
	}

	private static String pem(X509Certificate certificate) {
		try {
			return Pem.certificate(certificate);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not encode a certificate made here", ex);
		}
	}

}
