package dev.kubereconciler.test.certmanager;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

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
		IssuedCertificate issued = issuer.issue(this.namespace.name(), this.name);
		assertThat(issued.revision()).isEqualTo(1);
		V1Secret secret = secret();
		assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
		assertThat(secret.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
		// a selfSigned certificate is its own CA
		assertThat(text(secret, "ca.crt")).isEqualTo(text(secret, "tls.crt"));
		this.served.serve(secret);
		X509Certificate first = issued.certificate();
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
		X509Certificate first = issuer.issue(this.namespace.name(), this.name).certificate();
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

	@Test
	void aCaIssuerSignsWithItsSecretAndItsCaIsInjectedWhereAsked() throws Exception {
		String namespace = this.namespace.name();
		create("cert-manager.io", "issuers", """
				apiVersion: cert-manager.io/v1
				kind: Issuer
				metadata:
				  name: root
				  namespace: %1$s
				spec:
				  selfSigned: {}
				---
				apiVersion: cert-manager.io/v1
				kind: Certificate
				metadata:
				  name: root-ca
				  namespace: %1$s
				spec:
				  isCA: true
				  commonName: test-root-ca
				  secretName: root-ca
				  privateKey:
				    algorithm: ECDSA
				  issuerRef:
				    name: root
				---
				apiVersion: cert-manager.io/v1
				kind: Issuer
				metadata:
				  name: ca
				  namespace: %1$s
				spec:
				  ca:
				    secretName: root-ca
				""".formatted(namespace));
		// listed before the CA it needs: issued in a second round
		applyWebhookManifests("a-signed", "ca");
		create("apiextensions.k8s.io", "customresourcedefinitions", """
				apiVersion: apiextensions.k8s.io/v1
				kind: CustomResourceDefinition
				metadata:
				  name: widgets.%1$s.test
				  annotations:
				    cert-manager.io/inject-ca-from: %1$s/a-signed
				spec:
				  group: %1$s.test
				  scope: Namespaced
				  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
				  conversion:
				    strategy: Webhook
				    webhook:
				      conversionReviewVersions: ["v1"]
				      clientConfig:
				        url: https://127.0.0.1:%2$d/convert
				  versions:
				  - name: v1
				    served: true
				    storage: true
				    schema:
				      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
				""".formatted(namespace, this.server.getAddress().getPort()));
		try {
			List<IssuedCertificate> issued = new CertificateIssuer(this.client).issueAll(namespace);
			IssuedCertificate root = issued.stream().filter((each) -> each.name().equals("root-ca")).findFirst().get();
			IssuedCertificate signed = issued.stream()
				.filter((each) -> each.name().equals("a-signed"))
				.findFirst()
				.get();
			assertThat(root.certificate().getBasicConstraints()).isNotNegative();
			assertThat(signed.certificate().getIssuerX500Principal())
				.isEqualTo(root.certificate().getSubjectX500Principal());
			signed.certificate().verify(root.certificate().getPublicKey());
			// the self-signed root is ca.crt, left out of tls.crt
			assertThat(CertificateSigner.readCertificates(signed.tlsCrt())).containsExactly(signed.certificate());
			assertThat(signed.caCertificates()).containsExactly(root.certificate());
			assertThat(caBundle()).isEqualTo(root.tlsCrt());
			assertThat(conversionCaBundle(namespace)).isEqualTo(root.tlsCrt());
			this.served.serve(secret());
			assertThat(awaitCall().served()).isEqualTo(signed.certificate());
		}
		finally {
			new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", this.client)
				.delete("widgets." + namespace + ".test");
		}
	}

	@Test
	void aSecretIsInjectedDirectlyOnlyWhenItAllowsIt() throws ApiException {
		String namespace = this.namespace.name();
		this.name = "direct";
		create("admissionregistration.k8s.io", "validatingwebhookconfigurations", """
				apiVersion: admissionregistration.k8s.io/v1
				kind: ValidatingWebhookConfiguration
				metadata:
				  name: %1$s-direct
				  annotations:
				    cert-manager.io/inject-ca-from-secret: %1$s/direct-ca
				webhooks:
				- name: never.certificate-issuer.test
				  clientConfig:
				    url: https://127.0.0.1:%2$d/validate
				  rules:
				  - apiGroups: [""]
				    apiVersions: ["v1"]
				    operations: ["CREATE"]
				    resources: ["configmaps"]
				  objectSelector:
				    matchLabels:
				      certificate-issuer-tests: %1$s-never
				  sideEffects: None
				  admissionReviewVersions: ["v1"]
				""".formatted(namespace, this.server.getAddress().getPort()));
		CertificateSpec spec = CertificateSpec.of(JsonParser.parseString("""
				{"metadata": {"namespace": "%s", "name": "direct"}, "spec": {"secretName": "direct-ca",
				 "commonName": "direct", "isCA": true, "privateKey": {"algorithm": "ECDSA"},
				 "issuerRef": {"name": "none"}}}""".formatted(namespace)).getAsJsonObject());
		CertificateSigner signer = new CertificateSigner();
		KeyPair key = signer.generateKey(spec);
		String ca = CertificateSigner
			.certificatesPem(List.of(signer.sign(spec, key.getPublic(), null, key.getPrivate(), Instant.now())));
		V1Secret secret = new V1Secret().metadata(new V1ObjectMeta().name("direct-ca"))
			.data(Map.of("ca.crt", ca.getBytes(StandardCharsets.US_ASCII)));
		new CoreV1Api(this.client).createNamespacedSecret(namespace, secret).execute();
		CertificateIssuer issuer = new CertificateIssuer(this.client);
		assertThat(issuer.injectCaBundles()).doesNotContain("validatingwebhookconfigurations/" + namespace + "-direct");
		secret = new CoreV1Api(this.client).readNamespacedSecret("direct-ca", namespace).execute();
		secret.getMetadata().annotations(Map.of("cert-manager.io/allow-direct-injection", "true"));
		new CoreV1Api(this.client).replaceNamespacedSecret("direct-ca", namespace, secret).execute();
		assertThat(issuer.injectCaBundles()).contains("validatingwebhookconfigurations/" + namespace + "-direct");
		assertThat(caBundle()).isEqualTo(ca);
	}

	// each test has its own Issuer, Certificate and webhook: the namespace is the class's
	private void applyWebhookManifests(String name) {
		create("cert-manager.io", "issuers", """
				apiVersion: cert-manager.io/v1
				kind: Issuer
				metadata:
				  name: %2$s-selfsigned
				  namespace: %1$s
				spec:
				  selfSigned: {}
				""".formatted(this.namespace.name(), name));
		applyWebhookManifests(name, name + "-selfsigned");
	}

	private void applyWebhookManifests(String name, String issuer) {
		this.name = name;
		String namespace = this.namespace.name();
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
				    name: %3$s
				  duration: 2160h
				  renewBefore: 720h
				""".formatted(namespace, name, issuer));
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
		for (String document : yaml.split("(?m)^---$")) {
			DynamicKubernetesObject object = Dynamics.newFromYaml(document);
			String resource = object.getKind().equals("Certificate") ? "certificates" : plural;
			assertThat(new DynamicKubernetesApi(group, "v1", resource, this.client).create(object).isSuccess())
				.as("created %s", object.getKind())
				.isTrue();
		}
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

	private String conversionCaBundle(String namespace) {
		JsonObject crd = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client)
			.get("widgets." + namespace + ".test")
			.getObject()
			.getRaw();
		String caBundle = crd.getAsJsonObject("spec")
			.getAsJsonObject("conversion")
			.getAsJsonObject("webhook")
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

}
