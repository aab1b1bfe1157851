package dev.kubereconciler.cluster;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.io.IOException;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;

import io.kubernetes.client.util.SSLUtils;
import org.jspecify.annotations.Nullable;

/**
 * Presents the client certificate an exec plugin printed last, so that a renewed
 * certificate is used by the next TLS handshake without a new client.
 */
final class ExecKeyManager extends X509ExtendedKeyManager {

	private final ExecCredentials credentials;

	private @Nullable String certificate;

	private @Nullable X509KeyManager delegate;

	ExecKeyManager(ExecCredentials credentials) {
		this.credentials = credentials;
	}

	private synchronized @Nullable X509KeyManager delegate() {
		ExecCredentials.Credential credential = this.credentials.current();
		String certificate = credential.certificate();
		String key = credential.key();
		if (certificate == null || key == null) {
			return null;
		}
		if (!certificate.equals(this.certificate)) {
			byte[] keyData = key.getBytes(StandardCharsets.UTF_8);
			try {
				KeyManager[] managers = SSLUtils.keyManagers(certificate.getBytes(StandardCharsets.UTF_8), keyData,
						SSLUtils.recognizePrivateKeyAlgo(keyData), "", null, null);
				this.delegate = (X509KeyManager) managers[0];
				this.certificate = certificate;
			}
			catch (GeneralSecurityException | IOException | RuntimeException ex) {
				throw new ExecCredentials.ExecPluginException(
						"The client certificate or key an exec plugin printed is not usable: " + ex.getMessage(), ex);
			}
		}
		return this.delegate;
	}

	@Override
	public @Nullable String chooseClientAlias(String[] keyType, Principal @Nullable [] issuers,
			@Nullable Socket socket) {
		X509KeyManager delegate = delegate();
		return (delegate != null) ? delegate.chooseClientAlias(keyType, issuers, socket) : null;
	}

	@Override
	public @Nullable String chooseEngineClientAlias(String[] keyType, Principal @Nullable [] issuers,
			@Nullable SSLEngine engine) {
		return chooseClientAlias(keyType, issuers, null);
	}

	@Override
	public String @Nullable [] getClientAliases(String keyType, Principal @Nullable [] issuers) {
		X509KeyManager delegate = delegate();
		return (delegate != null) ? delegate.getClientAliases(keyType, issuers) : null;
	}

	@Override
	public X509Certificate @Nullable [] getCertificateChain(String alias) {
		X509KeyManager delegate = delegate();
		return (delegate != null) ? delegate.getCertificateChain(alias) : null;
	}

	@Override
	public @Nullable PrivateKey getPrivateKey(String alias) {
		X509KeyManager delegate = delegate();
		return (delegate != null) ? delegate.getPrivateKey(alias) : null;
	}

	@Override
	public String @Nullable [] getServerAliases(String keyType, Principal @Nullable [] issuers) {
		return null;
	}

	@Override
	public @Nullable String chooseServerAlias(String keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
		return null;
	}

}
