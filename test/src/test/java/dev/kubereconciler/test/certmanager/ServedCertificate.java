package dev.kubereconciler.test.certmanager;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

import io.kubernetes.client.openapi.models.V1Secret;
import org.jspecify.annotations.Nullable;

/**
 * The key and certificate the webhook server serves, read from the Secret and swapped
 * when it changes, as the application's SSL bundle does with reload-on-update.
 */
final class ServedCertificate extends X509ExtendedKeyManager {

	private volatile @Nullable PrivateKey key;

	private volatile X509Certificate[] chain = new X509Certificate[0];

	void serve(V1Secret secret) {
		this.chain = CertificateSigner.readCertificates(text(secret, "tls.crt")).toArray(X509Certificate[]::new);
		this.key = CertificateSigner.readPrivateKey(text(secret, "tls.key"));
	}

	SSLContext sslContext() throws GeneralSecurityException {
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(new KeyManager[] { this }, null, null);
		return context;
	}

	@Override
	public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
		return "webhook";
	}

	@Override
	public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
		return "webhook";
	}

	@Override
	public String[] getServerAliases(String keyType, Principal[] issuers) {
		return new String[] { "webhook" };
	}

	@Override
	public X509Certificate[] getCertificateChain(String alias) {
		return this.chain;
	}

	@Override
	public @Nullable PrivateKey getPrivateKey(String alias) {
		return this.key;
	}

	@Override
	public String @Nullable [] getClientAliases(String keyType, Principal[] issuers) {
		return null;
	}

	@Override
	public @Nullable String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
		return null;
	}

	private static String text(V1Secret secret, String key) {
		return new String(secret.getData().get(key), StandardCharsets.US_ASCII);
	}

}
