package dev.kubereconciler.webhook;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.webhook.WebhookServerLifecycle;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.webhook.server.SelfSignedCertificate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Certificate rotation against the real API server: the application serves its webhooks
 * with the certificate of a Spring SSL bundle read from a mounted Secret, and when the
 * Secret is renewed (a new serving certificate from the same CA, as cert-manager does),
 * new connections present the new certificate while the API server keeps calling the
 * webhooks, and not one admission request fails.
 */
@KubernetesTest
class WebhookCertificateRotationIntegrationTests {

	private static final String LABEL = "webhook-rotation-test";

	ApiClient client;

	TestNamespace namespace;

	@TempDir
	Path secretVolume;

	private final SelfSignedCertificate first = SelfSignedCertificate.generate();

	private final SelfSignedCertificate second = this.first.renew();

	private final CountingTcpProxy proxy = new CountingTcpProxy();

	private final Queue<String> failures = new ConcurrentLinkedQueue<>();

	private final AtomicInteger created = new AtomicInteger();

	private final AtomicInteger writers = new AtomicInteger();

	private final AtomicBoolean loading = new AtomicBoolean(true);

	private final ExecutorService load = Executors.newCachedThreadPool();

	private ConfigurableApplicationContext context;

	@AfterEach
	void stop() throws Exception {
		this.loading.set(false);
		this.load.shutdownNow();
		if (this.context != null) {
			this.context.close();
		}
		this.proxy.close();
	}

	@Test
	void noAdmissionRequestFailsWhileTheMountedCertificateIsRenewed() throws Exception {
		MountedSecret secret = MountedSecret.mount(this.secretVolume, files(this.first));
		labelNamespace();
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=certificate-rotation-test",
					"spring.ssl.bundle.pem.webhook.keystore.certificate=file:" + secret.file("tls.crt"),
					"spring.ssl.bundle.pem.webhook.keystore.private-key=file:" + secret.file("tls.key"),
					"spring.ssl.bundle.pem.webhook.truststore.certificate=file:" + secret.file("ca.crt"),
					"spring.ssl.bundle.pem.webhook.reload-on-update=true",
					"spring.ssl.bundle.watch.file.quiet-period=100ms", "kube-reconciler.webhooks.ssl-bundle=webhook",
					"kube-reconciler.webhooks.port=0", "kube-reconciler.webhooks.register=true",
					// through the proxy, which counts the API server's connections
					"kube-reconciler.webhooks.url=https://127.0.0.1:" + this.proxy.port(),
					"kube-reconciler.webhooks.namespace-selector." + LABEL + "=" + this.namespace.name())
			.run();
		int port = this.context.getBean(WebhookServerLifecycle.class).getPort();
		this.proxy.forwardTo(port);
		assertThat(presentedSerial(port)).isEqualTo(serial(this.first));
		// two writers at first, so that the API server needs few connections
		startWriters(2);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.created.get() >= 20);
		int createdBefore = this.created.get();
		secret.update(files(this.second));
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> presentedSerial(port).equals(serial(this.second)));
		// connections the API server opens from now on can only have the new certificate;
		// more writers make it open some, while those it has keep the first
		int connectionsBefore = this.proxy.connections();
		int createdAtSwap = this.created.get();
		startWriters(4);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.created.get() >= createdAtSwap + 50 && this.proxy.connections() > connectionsBefore);
		this.loading.set(false);
		this.load.shutdown();
		assertThat(this.load.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		assertThat(this.failures).isEmpty();
		assertThat(createdBefore).isPositive();
		assertThat(this.created.get() - createdAtSwap).isGreaterThanOrEqualTo(50);
		CoreV1Api core = new CoreV1Api(this.client);
		V1ConfigMap afterSwap = core.readNamespacedConfigMap("writer-5-0", this.namespace.name()).execute();
		assertThat(afterSwap.getData()).as("defaulted by the webhook").containsEntry("tier", "standard");
	}

	private void startWriters(int count) {
		CoreV1Api core = new CoreV1Api(this.client);
		int start = this.writers.getAndAdd(count);
		for (int writer = start; writer < start + count; writer++) {
			String prefix = "writer-" + writer + "-";
			this.load.execute(() -> {
				for (int i = 0; this.loading.get(); i++) {
					V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().name(prefix + i))
						.data(Map.of("mode", "fast"));
					try {
						core.createNamespacedConfigMap(this.namespace.name(), configMap).execute();
						this.created.incrementAndGet();
					}
					catch (ApiException ex) {
						if (this.loading.get()) {
							this.failures.add(prefix + i + ": " + ex.getCode() + " " + ex.getResponseBody());
						}
					}
				}
			});
		}
	}

	private void labelNamespace() throws ApiException {
		new DynamicKubernetesApi("", "v1", "namespaces", this.client)
			.patch(this.namespace.name(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"metadata\":{\"labels\":{\"" + LABEL + "\":\"" + this.namespace.name() + "\"}}}"))
			.throwsApiException();
	}

	private static Map<String, String> files(SelfSignedCertificate certificate) {
		return Map.of("tls.crt", certificate.certificatePem(), "tls.key", certificate.privateKeyPem(), "ca.crt",
				new String(certificate.caBundle(), StandardCharsets.US_ASCII));
	}

	private static BigInteger serial(SelfSignedCertificate certificate) throws Exception {
		return ((X509Certificate) CertificateFactory.getInstance("X.509")
			.generateCertificate(
					new ByteArrayInputStream(certificate.certificatePem().getBytes(StandardCharsets.US_ASCII))))
			.getSerialNumber();
	}

	// a fresh connection and handshake, as the API server makes one
	private BigInteger presentedSerial(int port) throws Exception {
		KeyStore trusted = KeyStore.getInstance("PKCS12");
		trusted.load(null, null);
		trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509")
			.generateCertificate(new ByteArrayInputStream(this.first.caBundle())));
		TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trustManagers.init(trusted);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trustManagers.getTrustManagers(), null);
		try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			socket.startHandshake();
			return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(SslAutoConfiguration.class)
	@Import(ConfigMapWebhooksApplication.class)
	static class Application {

	}

}
