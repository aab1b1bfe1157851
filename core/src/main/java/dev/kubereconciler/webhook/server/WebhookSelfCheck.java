package dev.kubereconciler.webhook.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * An HTTPS request of a {@link WebhookServer} to its own listener, through the JDK's HTTP
 * client, that verifies the certificate the server presents against the CA bundle the API
 * server is given: once it passed, the server's TLS stack is warm and its certificate is
 * one the API server accepts, so a replica may be declared ready.
 *
 * <p>
 * The certificate chain is verified; its host name is not, since the check calls the
 * loopback address while the certificate names the Service.
 */
public final class WebhookSelfCheck {

	private static final String PATH = "/kube-reconciler-self-check";

	private final SSLContext sslContext;

	private WebhookSelfCheck(SSLContext sslContext) {
		this.sslContext = sslContext;
	}

	/**
	 * Return a self-check that trusts the certificates of the given CA bundle.
	 * @param caBundle the PEM certificates the API server is given to trust
	 * @return the self-check
	 * @throws IllegalArgumentException if the bundle holds no certificate
	 */
	public static WebhookSelfCheck trusting(byte[] caBundle) {
		Objects.requireNonNull(caBundle, "caBundle must not be null");
		try {
			Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
				.generateCertificates(new ByteArrayInputStream(caBundle));
			if (certificates.isEmpty()) {
				throw new IllegalArgumentException("The webhook CA bundle holds no certificate");
			}
			KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
			trustStore.load(null, null);
			int index = 0;
			for (Certificate certificate : certificates) {
				trustStore.setCertificateEntry("ca-" + index++, certificate);
			}
			TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			factory.init(trustStore);
			X509TrustManager chain = (X509TrustManager) factory.getTrustManagers()[0];
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, new TrustManager[] { new ChainOnly(chain) }, null);
			return new WebhookSelfCheck(context);
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalArgumentException("Could not read the webhook CA bundle: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Send one request to the server at the given loopback port and wait for its answer:
	 * any HTTP status passes, since a status comes only after the TLS handshake and the
	 * request handler.
	 * @param port the port the server listens on
	 * @param timeout how long the connection and the answer may take
	 * @return whether the server answered over a verified TLS connection
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	public boolean passes(int port, Duration timeout) throws InterruptedException {
		return passes(new InetSocketAddress(port), timeout);
	}

	/**
	 * Send one request to the server at the address it listens on (loopback for a
	 * wildcard address) and wait for its answer; any HTTP status passes.
	 * @param address the address the server listens on
	 * @param timeout how long the connection and the answer may take
	 * @return whether the server answered over a verified TLS connection
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	public boolean passes(InetSocketAddress address, Duration timeout) throws InterruptedException {
		// a server bound to one address (a pod IP) does not answer on loopback
		InetAddress host = address.getAddress();
		String hostName = (host == null || host.isAnyLocalAddress()) ? "127.0.0.1"
				: (host instanceof Inet6Address) ? "[" + host.getHostAddress() + "]" : host.getHostAddress();
		HttpClient client = HttpClient.newBuilder().sslContext(this.sslContext).connectTimeout(timeout).build();
		HttpRequest request = HttpRequest.newBuilder(URI.create("https://" + hostName + ":" + address.getPort() + PATH))
			.timeout(timeout)
			.GET()
			.build();
		try {
			client.send(request, HttpResponse.BodyHandlers.discarding());
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Verifies the chain against the CA and skips the host name, which the JDK's HTTP
	 * client would otherwise check through the engine's endpoint identification.
	 */
	private static final class ChainOnly extends X509ExtendedTrustManager {

		private final X509TrustManager delegate;

		ChainOnly(X509TrustManager delegate) {
			this.delegate = delegate;
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
			this.delegate.checkServerTrusted(chain, authType);
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
				throws CertificateException {
			this.delegate.checkServerTrusted(chain, authType);
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
				throws CertificateException {
			this.delegate.checkServerTrusted(chain, authType);
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
			throw new CertificateException("The webhook self-check is a client only");
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
				throws CertificateException {
			checkClientTrusted(chain, authType);
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
				throws CertificateException {
			checkClientTrusted(chain, authType);
		}

		@Override
		public X509Certificate[] getAcceptedIssuers() {
			return this.delegate.getAcceptedIssuers();
		}

	}

}
