package dev.kubereconciler.webhook.server;

import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

import org.jspecify.annotations.Nullable;

/**
 * An {@link SSLContext} whose every call goes to the context set last, so that the JDK's
 * HTTPS server, which takes its context once and for good, makes each new connection's
 * engine from the current certificate.
 *
 * <p>
 * An engine belongs to the context that made it, so a connection made before a swap keeps
 * its certificate and its session until it closes.
 */
final class RotatingSslContext extends SSLContext {

	private final Spi spi;

	private RotatingSslContext(Spi spi, SSLContext initial) {
		super(spi, initial.getProvider(), initial.getProtocol());
		this.spi = spi;
	}

	static RotatingSslContext of(SSLContext initial) {
		return new RotatingSslContext(new Spi(initial), initial);
	}

	void set(SSLContext context) {
		this.spi.current = context;
	}

	private static final class Spi extends SSLContextSpi {

		private volatile SSLContext current;

		Spi(SSLContext current) {
			this.current = current;
		}

		@Override
		protected void engineInit(KeyManager @Nullable [] keyManagers, TrustManager @Nullable [] trustManagers,
				@Nullable SecureRandom random) {
			throw new UnsupportedOperationException("Initialize the contexts it delegates to instead");
		}

		@Override
		protected SSLSocketFactory engineGetSocketFactory() {
			return this.current.getSocketFactory();
		}

		@Override
		protected SSLServerSocketFactory engineGetServerSocketFactory() {
			return this.current.getServerSocketFactory();
		}

		@Override
		protected SSLEngine engineCreateSSLEngine() {
			return this.current.createSSLEngine();
		}

		@Override
		protected SSLEngine engineCreateSSLEngine(String host, int port) {
			return this.current.createSSLEngine(host, port);
		}

		@Override
		protected SSLSessionContext engineGetServerSessionContext() {
			return this.current.getServerSessionContext();
		}

		@Override
		protected SSLSessionContext engineGetClientSessionContext() {
			return this.current.getClientSessionContext();
		}

		@Override
		protected SSLParameters engineGetDefaultSSLParameters() {
			return this.current.getDefaultSSLParameters();
		}

		@Override
		protected SSLParameters engineGetSupportedSSLParameters() {
			return this.current.getSupportedSSLParameters();
		}

	}

}
