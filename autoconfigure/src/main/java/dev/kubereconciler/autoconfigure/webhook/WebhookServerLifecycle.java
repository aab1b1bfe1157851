package dev.kubereconciler.autoconfigure.webhook;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.SmartLifecycle;

import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.webhook.registration.WebhookConfigurations;
import dev.kubereconciler.webhook.registration.WebhookRegistration;
import dev.kubereconciler.webhook.server.Pem;
import dev.kubereconciler.webhook.server.SelfSignedCertificate;
import dev.kubereconciler.webhook.server.WebhookListener;
import dev.kubereconciler.webhook.server.WebhookSelfCheck;
import dev.kubereconciler.webhook.server.WebhookServer;
import dev.kubereconciler.webhook.Webhooks;

/**
 * Runs the webhook server with the application: started before the controllers, so that
 * their first writes find their webhooks answering, and stopped after them.
 *
 * <p>
 * The certificate comes from a Spring SSL bundle when one is named, and follows it when
 * Spring reloads it (a bundle with {@code reload-on-update}, as cert-manager's mounted
 * Secret changes); otherwise a self-signed CA and certificate are generated. With
 * {@code kube-reconciler.webhooks.register}, the application points the API server at
 * itself once the server listens, and withdraws when it stops.
 *
 * <p>
 * Once listening, the server serves itself an HTTPS self-check, verified against the CA
 * bundle the API server is given (or, for an SSL bundle with no trust store, against its
 * own certificate): {@link #hasServedSelfCheck()} is what the readiness probe waits for,
 * and registration waits for it too, so that the API server's first calls after a replica
 * becomes ready do not meet a cold TLS stack.
 */
public class WebhookServerLifecycle implements SmartLifecycle {

	/** The lifecycle phase: before the controllers, which stop first. */
	public static final int PHASE = ManagedControllers.PHASE - 256;

	private static final int SELF_CHECK_ATTEMPTS = 3;

	private static final Duration SELF_CHECK_TIMEOUT = Duration.ofSeconds(5);

	private static final Logger logger = LoggerFactory.getLogger(WebhookServerLifecycle.class);

	private final Webhooks webhooks;

	private final WebhookProperties properties;

	private final @Nullable SslBundles sslBundles;

	private final ApiClient client;

	private final WebhookListener listener;

	private final String applicationName;

	private final boolean autoStartup;

	private volatile @Nullable WebhookServer server;

	private volatile @Nullable WebhookConfigurations registered;

	private volatile @Nullable WebhookSelfCheck selfCheck;

	private volatile boolean selfCheckServed;

	WebhookServerLifecycle(Webhooks webhooks, WebhookProperties properties, @Nullable SslBundles sslBundles,
			ApiClient client, WebhookListener listener, String applicationName, boolean autoStartup) {
		this.webhooks = webhooks;
		this.properties = properties;
		this.sslBundles = sslBundles;
		this.client = client;
		this.listener = listener;
		this.applicationName = applicationName;
		this.autoStartup = autoStartup;
	}

	@Override
	public void start() {
		if (this.webhooks.isEmpty() || this.server != null) {
			return;
		}
		Certificates certificates = certificates();
		InetAddress address = this.properties.getAddress();
		WebhookServer server = WebhookServer.builder(certificates.sslContext())
			.address((address != null) ? new InetSocketAddress(address, this.properties.getPort())
					: new InetSocketAddress(this.properties.getPort()))
			.endpoints(this.webhooks.endpoints())
			.listener(this.listener)
			.threads(this.properties.getThreads(), (task) -> {
				Thread thread = new Thread(task, "kube-reconciler-webhook");
				thread.setDaemon(true);
				return thread;
			})
			.build();
		certificates.onUpdate().accept(server);
		start(server);
		byte @Nullable [] trusted = certificates.trusted();
		this.selfCheck = (trusted != null) ? WebhookSelfCheck.trusting(trusted) : null;
		this.server = server;
		warmUp(server);
		logger.info("Serving {} webhook path(s) over HTTPS on port {}: {}", this.webhooks.endpoints().size(),
				server.port(), this.webhooks.endpoints().keySet().stream().sorted().toList());
		if (this.properties.isRegister()) {
			if (!this.selfCheckServed) {
				throw new IllegalStateException("The webhook server on port " + server.port()
						+ " did not answer its own HTTPS self-check with a certificate its CA bundle signed, "
						+ "so its webhook configurations are not registered: check that the truststore of "
						+ "kube-reconciler.webhooks.ssl-bundle holds the CA that signed its keystore certificate");
			}
			WebhookConfigurations configurations = configurations(server.port(), certificates.caBundle());
			new WebhookRegistration(this.client).register(this.webhooks, configurations);
			this.registered = configurations;
			logger.info("Registered the webhook configurations '{}' at {}", configurations.name(),
					configurations.client());
		}
	}

	// a few attempts, each bounded: the first pays for the cold TLS stack, and a
	// certificate its own CA does not sign fails each at once
	private void warmUp(WebhookServer server) {
		for (int attempt = 0; attempt < SELF_CHECK_ATTEMPTS && !this.selfCheckServed; attempt++) {
			serveSelfCheck(server);
		}
		if (!this.selfCheckServed) {
			logger.warn("The webhook server on port {} did not answer its own HTTPS self-check; "
					+ "it stays not ready while the check fails", server.port());
		}
	}

	private boolean serveSelfCheck(WebhookServer server) {
		WebhookSelfCheck check = this.selfCheck;
		try {
			if (check != null && check.passes(new InetSocketAddress(server.address().getAddress(), server.port()),
					SELF_CHECK_TIMEOUT)) {
				this.selfCheckServed = true;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return this.selfCheckServed;
	}

	/**
	 * Return whether the webhook server has served its HTTPS self-check, trying once more
	 * if it has not; {@code true} when the application has no webhooks to serve.
	 * @return whether the webhook server is warm and ready for the API server
	 */
	public boolean hasServedSelfCheck() {
		if (this.webhooks.isEmpty() || this.selfCheckServed) {
			return true;
		}
		WebhookServer server = this.server;
		return server != null && serveSelfCheck(server);
	}

	private void start(WebhookServer server) {
		try {
			server.start();
		}
		catch (UncheckedIOException ex) {
			if (ex.getCause() instanceof BindException) {
				int port = this.properties.getPort();
				throw new InvalidPropertyException("kube-reconciler.webhooks.port", port,
						"the webhook server cannot listen on port " + port + " (" + ex.getCause().getMessage()
								+ "): it is already in use, by another process or another instance of the application",
						"Stop what listens on port " + port + ", or set kube-reconciler.webhooks.port to a free port "
								+ "(0 picks one, for tests).");
			}
			throw ex;
		}
	}

	@Override
	public void stop() {
		WebhookConfigurations configurations = this.registered;
		if (configurations != null) {
			try {
				new WebhookRegistration(this.client).unregister(configurations);
			}
			catch (RuntimeException ex) {
				if (unreachable(ex)) {
					// the local API server of ./dev run gets Ctrl-C too, and is gone with
					// the configurations; a stack trace would tell nothing more
					logger.info(
							"The API server does not answer, so the webhook configurations '{}' stay registered "
									+ "until it comes back; delete them with: kubectl delete "
									+ "validatingwebhookconfiguration,mutatingwebhookconfiguration {}",
							configurations.name(), configurations.name());
				}
				else {
					logger.warn("Could not delete the webhook configurations '{}'", configurations.name(), ex);
				}
			}
			this.registered = null;
		}
		WebhookServer server = this.server;
		if (server != null) {
			server.stop(Duration.ofSeconds(5));
			this.server = null;
			this.selfCheckServed = false;
		}
	}

	// client-java wraps the connection's IOException; a refusal by the server has none
	private static boolean unreachable(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof IOException) {
				return true;
			}
		}
		return false;
	}

	@Override
	public boolean isRunning() {
		return this.server != null;
	}

	@Override
	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Return the port the server listens on.
	 * @return the port
	 * @throws IllegalStateException if the server does not run
	 */
	public int getPort() {
		WebhookServer server = this.server;
		if (server == null) {
			throw new IllegalStateException("The webhook server does not run");
		}
		return server.port();
	}

	WebhookConfigurations configurations(int port, byte @Nullable [] caBundle) {
		String url = (this.properties.getUrl() != null) ? this.properties.getUrl() : "https://127.0.0.1:" + port;
		if (caBundle == null) {
			throw new InvalidPropertyException("kube-reconciler.webhooks.register", "true",
					"the SSL bundle '" + this.properties.getSslBundle()
							+ "' has no trust store, so the CA that the API server must trust is not known",
					"Give the bundle a truststore.certificate with the CA that signed its certificate, "
							+ "or let the application generate a self-signed one by leaving "
							+ "kube-reconciler.webhooks.ssl-bundle unset.");
		}
		String name = (this.properties.getConfigurationName() != null) ? this.properties.getConfigurationName()
				: this.applicationName;
		V1LabelSelector selector = this.properties.getNamespaceSelector().isEmpty() ? null
				: new V1LabelSelector().matchLabels(this.properties.getNamespaceSelector());
		return new WebhookConfigurations(name, WebhookClientConfig.url(url, caBundle),
				this.properties.getFailurePolicy().value(), this.properties.getTimeout(), selector,
				Map.of("app.kubernetes.io/managed-by", "kube-reconciler"));
	}

	private Certificates certificates() {
		String bundleName = this.properties.getSslBundle();
		if (bundleName == null) {
			SelfSignedCertificate certificate = SelfSignedCertificate.generate();
			logger.info("No kube-reconciler.webhooks.ssl-bundle: serving webhooks with a self-signed certificate, "
					+ "for development and tests");
			return new Certificates(certificate.sslContext(), certificate.caBundle(), certificate.caBundle(),
					(server) -> {
					});
		}
		SslBundles bundles = this.sslBundles;
		if (bundles == null) {
			throw new InvalidPropertyException("kube-reconciler.webhooks.ssl-bundle", bundleName,
					"the application has no SslBundles bean", "Keep Spring Boot's SslAutoConfiguration enabled.");
		}
		SslBundle bundle;
		try {
			bundle = bundles.getBundle(bundleName);
		}
		catch (NoSuchSslBundleException ex) {
			throw new InvalidPropertyException("kube-reconciler.webhooks.ssl-bundle", bundleName,
					"no SSL bundle has that name",
					"Define it under spring.ssl.bundle.pem." + bundleName + " (keystore.certificate and "
							+ "keystore.private-key, with reload-on-update: true to follow cert-manager's renewals), "
							+ "or leave kube-reconciler.webhooks.ssl-bundle unset for a self-signed certificate.");
		}
		byte @Nullable [] caBundle = caBundle(bundle.getStores().getTrustStore());
		return new Certificates(bundle.createSslContext(), caBundle,
				(caBundle != null) ? caBundle : caBundle(bundle.getStores().getKeyStore()),
				(server) -> bundles.addBundleUpdateHandler(bundleName, (updated) -> {
					server.updateSslContext(updated.createSslContext());
					logger.info("The webhook server presents the renewed certificate of the SSL bundle '{}'",
							bundleName);
				}));
	}

	private static byte @Nullable [] caBundle(@Nullable KeyStore trustStore) {
		if (trustStore == null) {
			return null;
		}
		try {
			StringWriter pem = new StringWriter();
			List<String> aliases = Collections.list(trustStore.aliases());
			for (String alias : aliases) {
				Certificate certificate = trustStore.getCertificate(alias);
				if (certificate != null) {
					pem.append(Pem.certificate(certificate));
				}
			}
			return pem.toString().getBytes(StandardCharsets.US_ASCII);
		}
		catch (KeyStoreException | CertificateEncodingException ex) {
			throw new IllegalStateException("Could not read the CA certificates of the webhook SSL bundle", ex);
		}
	}

	/**
	 * The TLS context, the CA bundle the API server is given, what the self-check trusts
	 * (the CA bundle, or the server's own certificate chain when there is none) and how
	 * renewals reach the server.
	 */
	private record Certificates(SSLContext sslContext, byte @Nullable [] caBundle, byte @Nullable [] trusted,
			Consumer<WebhookServer> onUpdate) {

	}

}
