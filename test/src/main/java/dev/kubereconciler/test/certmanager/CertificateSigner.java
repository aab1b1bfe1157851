package dev.kubereconciler.test.certmanager;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.DEROctetString;
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
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.jspecify.annotations.Nullable;

/**
 * Makes keys and signs certificates as cert-manager's issuers do, and reads and writes
 * them as PEM.
 */
final class CertificateSigner {

	// Bouncy Castle's EC keys carry their public key in their encoding, as OpenSSL's and
	// Go's do; made once, as it is slow to construct
	private static final Provider BOUNCY_CASTLE = new BouncyCastleProvider();

	private final SecureRandom random = new SecureRandom();

	/**
	 * Generate a private key as cert-manager does for {@code spec.privateKey}: RSA 2048
	 * unless the algorithm or size says otherwise.
	 * @param spec the certificate's spec
	 * @return the key pair
	 */
	KeyPair generateKey(CertificateSpec spec) {
		try {
			return switch (spec.keyAlgorithm()) {
				case "ECDSA" -> {
					KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", BOUNCY_CASTLE);
					int size = (spec.keySize() != 0) ? spec.keySize() : 256;
					String curve = switch (size) {
						case 256 -> "secp256r1";
						case 384 -> "secp384r1";
						case 521 -> "secp521r1";
						default -> throw new IllegalArgumentException(
								"Certificate " + spec.key() + " asks for an ECDSA key of size " + size
										+ ": spec.privateKey.size must be " + "256, 384 or 521");
					};
					generator.initialize(new ECGenParameterSpec(curve), this.random);
					yield generator.generateKeyPair();
				}
				case "Ed25519" -> KeyPairGenerator.getInstance("Ed25519", BOUNCY_CASTLE).generateKeyPair();
				case "RSA" -> {
					KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA", BOUNCY_CASTLE);
					generator.initialize((spec.keySize() != 0) ? spec.keySize() : 2048, this.random);
					yield generator.generateKeyPair();
				}
				default -> throw new IllegalArgumentException("Certificate " + spec.key() + " asks for key algorithm "
						+ spec.keyAlgorithm() + ": spec.privateKey.algorithm must be RSA, ECDSA or Ed25519");
			};
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not generate the key of certificate " + spec.key(), ex);
		}
	}

	/**
	 * Sign a certificate for the spec's names and validity.
	 * @param spec the certificate's spec
	 * @param subjectKey the certificate's public key
	 * @param issuer the issuing CA's certificate, or {@code null} for a self-signed one
	 * @param issuerKey the key that signs: the CA's, or the certificate's own
	 * @param now when the certificate becomes valid
	 * @return the certificate
	 */
	X509Certificate sign(CertificateSpec spec, PublicKey subjectKey, @Nullable X509Certificate issuer,
			PrivateKey issuerKey, Instant now) {
		try {
			X500Name subject = subject(spec);
			X500Name issuerName = (issuer != null) ? X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded())
					: subject;
			X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuerName,
					new BigInteger(128, this.random), Date.from(now), Date.from(now.plus(spec.duration())), subject,
					subjectKey);
			JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
			builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(spec.isCa()));
			builder.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage(spec, subjectKey)));
			List<KeyPurposeId> purposes = extendedKeyUsages(spec);
			if (!purposes.isEmpty()) {
				builder.addExtension(Extension.extendedKeyUsage, false,
						new ExtendedKeyUsage(purposes.toArray(KeyPurposeId[]::new)));
			}
			builder.addExtension(Extension.subjectKeyIdentifier, false,
					extensions.createSubjectKeyIdentifier(subjectKey));
			if (issuer != null) {
				builder.addExtension(Extension.authorityKeyIdentifier, false,
						extensions.createAuthorityKeyIdentifier(issuer));
			}
			GeneralNames names = alternativeNames(spec);
			if (names.getNames().length > 0) {
				// critical when the subject is empty, as RFC 5280 asks
				builder.addExtension(Extension.subjectAlternativeName, subject.getRDNs().length == 0, names);
			}
			String algorithm = signatureAlgorithm(issuerKey);
			X509CertificateHolder holder = builder
				.build(new JcaContentSignerBuilder(algorithm).setProvider(BOUNCY_CASTLE).build(issuerKey));
			return new JcaX509CertificateConverter().setProvider(BOUNCY_CASTLE).getCertificate(holder);
		}
		catch (GeneralSecurityException | OperatorCreationException | IOException ex) {
			throw new IllegalStateException("Could not sign certificate " + spec.key(), ex);
		}
	}

	/**
	 * Return the PEM of a private key in the encoding cert-manager writes: {@code PKCS1}
	 * (the default: {@code RSA PRIVATE KEY}, {@code EC PRIVATE KEY}) or {@code PKCS8}
	 * ({@code PRIVATE KEY}).
	 * @param key the key
	 * @param encoding {@code PKCS1} or {@code PKCS8}
	 * @return the PEM
	 */
	static String privateKeyPem(PrivateKey key, String encoding) {
		try {
			return ("PKCS8".equals(encoding) || "Ed25519".equals(key.getAlgorithm()))
					? pem(new JcaPKCS8Generator(key, null)) : pem(key);
		}
		catch (org.bouncycastle.util.io.pem.PemGenerationException ex) {
			throw new IllegalStateException("Could not encode a private key", ex);
		}
	}

	/**
	 * Return the PEM of certificates, one after the other.
	 * @param certificates the certificates
	 * @return the PEM
	 */
	static String certificatesPem(List<X509Certificate> certificates) {
		StringBuilder pem = new StringBuilder();
		certificates.forEach((certificate) -> pem.append(pem(certificate)));
		return pem.toString();
	}

	/**
	 * Read the certificates of a PEM text, skipping anything else.
	 * @param pem the PEM
	 * @return the certificates, in order
	 */
	static List<X509Certificate> readCertificates(String pem) {
		List<X509Certificate> certificates = new ArrayList<>();
		try (PEMParser parser = new PEMParser(new StringReader(pem))) {
			for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
				if (object instanceof X509CertificateHolder holder) {
					certificates
						.add(new JcaX509CertificateConverter().setProvider(BOUNCY_CASTLE).getCertificate(holder));
				}
			}
			return certificates;
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalArgumentException("Could not read the certificates of a PEM text: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Read the private key of a PEM text, in any encoding cert-manager writes.
	 * @param pem the PEM
	 * @return the key pair
	 */
	static PrivateKey readPrivateKey(String pem) {
		try (PEMParser parser = new PEMParser(new StringReader(pem))) {
			JcaPEMKeyConverter converter = new JcaPEMKeyConverter().setProvider(BOUNCY_CASTLE);
			for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
				if (object instanceof PEMKeyPair pair) {
					return converter.getKeyPair(pair).getPrivate();
				}
				if (object instanceof PrivateKeyInfo info) {
					return converter.getPrivateKey(info);
				}
			}
			throw new IllegalArgumentException("The PEM text holds no private key");
		}
		catch (IOException ex) {
			throw new IllegalArgumentException("Could not read the private key of a PEM text: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Return the key pair of a private key, whose public half the certificate carries.
	 * @param key the private key
	 * @param certificate a certificate of that key
	 * @return the pair
	 */
	static KeyPair pair(PrivateKey key, X509Certificate certificate) {
		return new KeyPair(certificate.getPublicKey(), key);
	}

	private static X500Name subject(CertificateSpec spec) {
		X500NameBuilder name = new X500NameBuilder(BCStyle.INSTANCE);
		spec.organizations().forEach((organization) -> name.addRDN(BCStyle.O, organization));
		if (!spec.commonName().isEmpty()) {
			name.addRDN(BCStyle.CN, spec.commonName());
		}
		return name.build();
	}

	private static GeneralNames alternativeNames(CertificateSpec spec) {
		List<GeneralName> names = new ArrayList<>();
		spec.dnsNames().forEach((name) -> names.add(new GeneralName(GeneralName.dNSName, name)));
		for (String address : spec.ipAddresses()) {
			try {
				// a literal: InetAddress only parses it, and never asks a resolver
				byte[] bytes = InetAddress.getByName(address).getAddress();
				names.add(new GeneralName(GeneralName.iPAddress, (ASN1Encodable) new DEROctetString(bytes)));
			}
			catch (IOException ex) {
				throw new IllegalArgumentException(
						"Certificate " + spec.key() + " has an invalid spec.ipAddresses entry: " + address, ex);
			}
		}
		spec.uris().forEach((uri) -> names.add(new GeneralName(GeneralName.uniformResourceIdentifier, uri)));
		spec.emailAddresses().forEach((email) -> names.add(new GeneralName(GeneralName.rfc822Name, email)));
		return new GeneralNames(names.toArray(GeneralName[]::new));
	}

	// cert-manager's default usages are "digital signature" and "key encipherment", and a
	// CA may also sign certificates
	private static int keyUsage(CertificateSpec spec, PublicKey key) {
		int usage = 0;
		for (String name : spec.usages()) {
			usage |= switch (name) {
				case "digital signature", "signing" -> KeyUsage.digitalSignature;
				case "key encipherment" -> KeyUsage.keyEncipherment;
				case "content commitment" -> KeyUsage.nonRepudiation;
				case "data encipherment" -> KeyUsage.dataEncipherment;
				case "key agreement" -> KeyUsage.keyAgreement;
				case "cert sign" -> KeyUsage.keyCertSign;
				case "crl sign" -> KeyUsage.cRLSign;
				default -> 0;
			};
		}
		if (!"RSA".equals(key.getAlgorithm())) {
			// key encipherment means nothing for an ECDSA or Ed25519 key, so Go drops it
			usage &= ~KeyUsage.keyEncipherment;
		}
		if (spec.isCa()) {
			usage |= KeyUsage.keyCertSign;
		}
		return (usage != 0) ? usage : KeyUsage.digitalSignature;
	}

	private static List<KeyPurposeId> extendedKeyUsages(CertificateSpec spec) {
		List<KeyPurposeId> purposes = new ArrayList<>();
		for (String name : spec.usages()) {
			switch (name) {
				case "server auth" -> purposes.add(KeyPurposeId.id_kp_serverAuth);
				case "client auth" -> purposes.add(KeyPurposeId.id_kp_clientAuth);
				case "code signing" -> purposes.add(KeyPurposeId.id_kp_codeSigning);
				case "email protection" -> purposes.add(KeyPurposeId.id_kp_emailProtection);
				default -> {
				}
			}
		}
		return purposes;
	}

	private static String signatureAlgorithm(PrivateKey key) {
		return switch (key.getAlgorithm()) {
			case "RSA" -> "SHA256withRSA";
			case "Ed25519", "EdDSA" -> "Ed25519";
			default -> "SHA256withECDSA";
		};
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

}
