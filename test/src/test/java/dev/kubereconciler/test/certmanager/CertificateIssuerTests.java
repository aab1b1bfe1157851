package dev.kubereconciler.test.certmanager;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.SSLContext;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that {@link CertificateIssuer} issues Certificates into their Secrets as
 * cert-manager does and injects their CA, proven by the API server calling a webhook over
 * TLS with the injected bundle, before and after a renewal.
 */
@KubernetesTest(crds = CertManagerCrds.LOCATION)
class CertificateIssuerTests {

	private static final Duration CALLED = Duration.ofSeconds(20);

	ApiClient client;

	TestNamespace namespace;

	private HttpsServer server;

	private final ServedCertificate served = new ServedCertificate();

	private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();

	private final AtomicInteger configMaps = new AtomicInteger();

	private String name = "";

	private volatile String lastRefusal = "none";

	@BeforeEach
	void startWebhookServer() throws IOException, GeneralSecurityException {
		// it can handshake once the Secret it reads is issued
		this.server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/validate", (exchange) -> {
			try (InputStream body = exchange.getRequestBody()) {
				JsonObject request = JsonParser.parseString(new String(body.readAllBytes(), StandardCharsets.UTF_8))
					.getAsJsonObject()
					.getAsJsonObject("request");
				Certificate[] served = ((HttpsExchange) exchange).getSSLSession().getLocalCertificates();
				this.calls.add(new Call(request.get("name").getAsString(), (X509Certificate) served[0]));
				byte[] response = """
						{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
						 "response":{"uid":"%s","allowed":true}}""".formatted(request.get("uid").getAsString())
					.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().add("Content-Type", "application/json");
				// a new connection, and so a new handshake, for each call: each shows the
				// certificate served at that moment
				exchange.getResponseHeaders().add("Connection", "close");
				exchange.sendResponseHeaders(200, response.length);
				exchange.getResponseBody().write(response);
			}
			exchange.close();
		});
		this.server.setHttpsConfigurator(new HttpsConfigurator(this.served.sslContext()));
		this.server.start();
	}

	@AfterEach
	void stopWebhookServer() {
		this.server.stop(0);
		new DynamicKubernetesApi("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", this.client)
			.delete(this.namespace.name() + "-" + this.name);
	}

	@Test
	void theApiServerCallsTheWebhookWithTheInjectedCaBeforeAndAfterARenewal() throws Exception {
		applyWebhookManifests("replaced");
		CertificateIssuer issuer = new CertificateIssuer(this.client);
		List<IssuedCertificate> issued = issuer.issueAll(this.namespace.name());
		assertThat(issued).singleElement().satisfies((certificate) -> assertThat(certificate.revision()).isEqualTo(1));
		V1Secret secret = secret();
		assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
		assertThat(secret.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
		// a selfSigned certificate is its own CA
		assertThat(text(secret, "ca.crt")).isEqualTo(text(secret, "tls.crt"));
		this.served.serve(secret);
		X509Certificate first = issued.get(0).certificate();
		assertThat(awaitCall().served()).isEqualTo(first);

		IssuedCertificate renewed = issuer.renew(this.namespace.name(), this.name);
		assertThat(renewed.revision()).isEqualTo(2);
		assertThat(renewed.certificate().getSerialNumber()).isNotEqualTo(first.getSerialNumber());
		// rotationPolicy Always, cert-manager's default: a new key
		assertThat(renewed.certificate().getPublicKey()).isNotEqualTo(first.getPublicKey());
		assertThat(caBundle()).isEqualTo(renewed.caCrt());
		// cert-manager's default replaces the bundle: until the server serves the renewed
		// certificate, the API server no longer trusts it
		await().atMost(CALLED).until(() -> !createConfigMap());
		assertThat(this.lastRefusal).contains("x509");
		this.served.serve(secret());
		assertThat(awaitCall().served()).isEqualTo(renewed.certificate());
		assertThat(certificateStatus().get("revision").getAsInt()).isEqualTo(2);
	}

	@Test
	void mergedBundlesTrustTheOldAndTheRenewedCertificateAlike() throws Exception {
		applyWebhookManifests("merged");
		CertificateIssuer issuer = new CertificateIssuer(this.client).withCaBundlesMerged();
		X509Certificate first = issuer.issueAll(this.namespace.name()).get(0).certificate();
		V1Secret firstSecret = secret();
		this.served.serve(firstSecret);
		assertThat(awaitCall().served()).isEqualTo(first);

		IssuedCertificate renewed = issuer.renew(this.namespace.name(), this.name);
		assertThat(CertificateSigner.readCertificates(caBundle())).containsExactly(first, renewed.certificate());
		this.served.serve(secret());
		assertThat(awaitCall().served()).isEqualTo(renewed.certificate());
		// a replica that has not reloaded the Secret yet is trusted still
		this.served.serve(firstSecret);
		assertThat(createConfigMap()).as("the API server's refusal: %s", this.lastRefusal).isTrue();
		assertThat(this.calls.poll().served()).isEqualTo(first);
	}

	// each test has its own Issuer, Certificate and webhook: the namespace is the class's
	private void applyWebhookManifests(String name) {
		this.name = name;
		String namespace = this.namespace.name();
		create("cert-manager.io", "issuers", """
				apiVersion: cert-manager.io/v1
				kind: Issuer
				metadata:
				  name: %2$s-selfsigned
				  namespace: %1$s
				spec:
				  selfSigned: {}
				""".formatted(namespace, name));
		create("cert-manager.io", "certificates", """
				apiVersion: cert-manager.io/v1
				kind: Certificate
				metadata:
				  name: %2$s
				  namespace: %1$s
				spec:
				  secretName: %2$s-tls
				  dnsNames:
				  - localhost
				  ipAddresses:
				  - 127.0.0.1
				  issuerRef:
				    kind: Issuer
				    name: %2$s-selfsigned
				  duration: 2160h
				  renewBefore: 720h
				""".formatted(namespace, name));
		// only this test's ConfigMaps go through it: the server is shared, and its
		// namespaces have no kubernetes.io/metadata.name label to select them by
		create("admissionregistration.k8s.io", "validatingwebhookconfigurations", """
				apiVersion: admissionregistration.k8s.io/v1
				kind: ValidatingWebhookConfiguration
				metadata:
				  name: %1$s-%3$s
				  annotations:
				    cert-manager.io/inject-ca-from: %1$s/%3$s
				webhooks:
				- name: configmaps.certificate-issuer.test
				  clientConfig:
				    url: https://127.0.0.1:%2$d/validate
				  rules:
				  - apiGroups: [""]
				    apiVersions: ["v1"]
				    operations: ["CREATE"]
				    resources: ["configmaps"]
				  objectSelector:
				    matchLabels:
				      certificate-issuer-tests: %1$s-%3$s
				  failurePolicy: Fail
				  sideEffects: None
				  admissionReviewVersions: ["v1"]
				  timeoutSeconds: 5
				""".formatted(namespace, this.server.getAddress().getPort(), name));
	}

	private void create(String group, String plural, String yaml) {
		DynamicKubernetesObject object = Dynamics.newFromYaml(yaml);
		assertThat(new DynamicKubernetesApi(group, "v1", plural, this.client).create(object).isSuccess())
			.as("created %s", plural)
			.isTrue();
	}

	// the API server picks up a changed configuration or server after a moment: a create
	// is refused (failurePolicy Fail) or not sent to the webhook until then
	private Call awaitCall() {
		this.calls.clear();
		try {
			await().atMost(CALLED).until(() -> createConfigMap() && !this.calls.isEmpty());
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("The webhook was not called; the API server's last refusal: " + this.lastRefusal,
					ex);
		}
		return this.calls.poll();
	}

	private boolean createConfigMap() throws ApiException {
		V1ConfigMap configMap = new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(this.name + "-" + this.configMaps.incrementAndGet())
				.labels(Map.of("certificate-issuer-tests", this.namespace.name() + "-" + this.name)));
		try {
			new CoreV1Api(this.client).createNamespacedConfigMap(this.namespace.name(), configMap).execute();
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 500 || ex.getCode() == 403) {
				this.lastRefusal = ex.getResponseBody();
				return false;
			}
			throw ex;
		}
	}

	private V1Secret secret() throws ApiException {
		return new CoreV1Api(this.client).readNamespacedSecret(this.name + "-tls", this.namespace.name()).execute();
	}

	private String caBundle() {
		JsonObject configuration = new DynamicKubernetesApi("admissionregistration.k8s.io", "v1",
				"validatingwebhookconfigurations", this.client)
			.get(this.namespace.name() + "-" + this.name)
			.getObject()
			.getRaw();
		String caBundle = configuration.getAsJsonArray("webhooks")
			.get(0)
			.getAsJsonObject()
			.getAsJsonObject("clientConfig")
			.get("caBundle")
			.getAsString();
		return new String(Base64.getDecoder().decode(caBundle), StandardCharsets.US_ASCII);
	}

	private JsonObject certificateStatus() {
		return CertificateIssuer.certificates(this.client)
			.get(this.namespace.name(), this.name)
			.getObject()
			.getRaw()
			.getAsJsonObject("status");
	}

	private static String text(V1Secret secret, String key) {
		return new String(secret.getData().get(key), StandardCharsets.US_ASCII);
	}

	private record Call(String name, X509Certificate served) {
	}

	/**
	 * The key and certificate the webhook server serves, read from the Secret and swapped
	 * when it changes, as the application's SSL bundle does with reload-on-update.
	 */
	private static final class ServedCertificate extends X509ExtendedKeyManager {

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

	}

}
