package dev.kubereconciler.webhook.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * The clients of the webhook server's tests: {@link HttpClient}s and raw HTTP/1.1 over a
 * TLS socket, for what a test must see on the wire (one connection, a declared length),
 * each verifying the server's host name against the authorities it trusts.
 */
final class TlsClients {

	private TlsClients() {
	}

	/**
	 * Return a client-side TLS context that trusts only the authorities of the given
	 * certificates.
	 */
	static SSLContext trusting(SelfSignedCertificate... certificates) {
		try {
			KeyStore trusted = KeyStore.getInstance("PKCS12");
			trusted.load(null, null);
			for (int i = 0; i < certificates.length; i++) {
				trusted.setCertificateEntry("ca-" + i, x509(certificates[i].caBundle()));
			}
			TrustManagerFactory trustManagers = TrustManagerFactory
				.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trustManagers.init(trusted);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trustManagers.getTrustManagers(), null);
			return context;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static X509Certificate x509(byte[] pem) {
		try {
			return (X509Certificate) CertificateFactory.getInstance("X.509")
				.generateCertificate(new ByteArrayInputStream(pem));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static X509Certificate x509(String pem) {
		return x509(pem.getBytes(StandardCharsets.US_ASCII));
	}

	static HttpClient httpClient(SSLContext sslContext) {
		return HttpClient.newBuilder()
			.sslContext(sslContext)
			// the API server speaks HTTP/1.1 to webhooks unless they offer HTTP/2
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.build();
	}

	static HttpRequest.Builder post(String host, int port, String path, String json) {
		return HttpRequest.newBuilder(URI.create("https://" + host + ":" + port + path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json));
	}

	/**
	 * Open a TLS connection that verifies the host name as an HTTPS client does.
	 */
	static SSLSocket connect(SSLContext sslContext, String host, int port) throws IOException {
		SSLSocket socket = (SSLSocket) sslContext.getSocketFactory().createSocket(host, port);
		SSLParameters parameters = socket.getSSLParameters();
		parameters.setEndpointIdentificationAlgorithm("HTTPS");
		socket.setSSLParameters(parameters);
		socket.setSoTimeout(30_000);
		socket.startHandshake();
		return socket;
	}

	/**
	 * Send a request's head, as given, and the body, if any, as is.
	 */
	static void send(SSLSocket socket, String head, byte[] body) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
		out.write(body);
		out.flush();
	}

	static String postHead(String path, int contentLength, String... headers) {
		StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n");
		head.append("Content-Type: application/json\r\nContent-Length: ").append(contentLength).append("\r\n");
		for (String header : headers) {
			head.append(header).append("\r\n");
		}
		return head.toString();
	}

	/**
	 * Read one response whose body has a declared length.
	 */
	static RawResponse read(SSLSocket socket) throws IOException {
		InputStream in = socket.getInputStream();
		String statusLine = line(in);
		Map<String, String> headers = new LinkedHashMap<>();
		for (String line = line(in); !line.isEmpty(); line = line(in)) {
			int colon = line.indexOf(':');
			headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
		}
		int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
		String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
		return new RawResponse(Integer.parseInt(statusLine.split(" ")[1]), headers, body);
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		for (int b = in.read(); b != '\n'; b = in.read()) {
			if (b == -1) {
				throw new IOException("The connection closed in the middle of a response: " + line);
			}
			if (b != '\r') {
				line.append((char) b);
			}
		}
		return line.toString();
	}

	record RawResponse(int status, Map<String, String> headers, String body) {
	}

}
