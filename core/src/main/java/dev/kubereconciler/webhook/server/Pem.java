package dev.kubereconciler.webhook.server;

import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.util.Base64;

/**
 * The PEM encoding of certificates, as the {@code caBundle} of a webhook configuration or
 * of a CRD's conversion webhook holds them: RFC 7468's textual encoding, with lines of 64
 * characters.
 */
public final class Pem {

	private Pem() {
	}

	/**
	 * Return a certificate in PEM; the PEM of several certificates, one after the other,
	 * is a CA bundle of them all.
	 * @param certificate the certificate
	 * @return the {@code -----BEGIN CERTIFICATE-----} block, ending with a line break
	 * @throws CertificateEncodingException if the certificate cannot be encoded
	 */
	public static String certificate(Certificate certificate) throws CertificateEncodingException {
		return encode("CERTIFICATE", certificate.getEncoded());
	}

	/**
	 * Return DER bytes in PEM.
	 * @param type the type of the block, such as {@code PRIVATE KEY}
	 * @param der the DER bytes
	 * @return the block, ending with a line break
	 */
	static String encode(String type, byte[] der) {
		String base64 = Base64.getMimeEncoder(64, new byte[] { '\n' }).encodeToString(der);
		return "-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n";
	}

}
