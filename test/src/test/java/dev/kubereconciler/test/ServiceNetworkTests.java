package dev.kubereconciler.test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.certmanager.CertManagerCrds;
import dev.kubereconciler.test.certmanager.CertificateIssuer;
import dev.kubereconciler.test.certmanager.IssuedCertificate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the API server calls a webhook given by a Service reference through the
 * {@link ServiceNetwork}: on a ready pod the Service selects, on the port its
 * {@code targetPort} names, over TLS with the pod's own certificate, round-robin, and
 * that it refuses the write naming the reason when no pod is ready.
 */
@KubernetesTest(crds = CertManagerCrds.LOCATION)
class ServiceNetworkTests {

	private static final Duration CALLED = Duration.ofSeconds(20);

	ApiClient client;

	KubernetesTestServer server;

	TestNamespace namespace;

	private final List<HttpsServer> pods = new ArrayList<>();

	private final List<ServiceNetwork.Registration> endpoints = new ArrayList<>();

	private final ConcurrentLinkedQueue<String> answeredBy = new ConcurrentLinkedQueue<>();

	private final AtomicInteger configMaps = new AtomicInteger();

	@AfterEach
	void stopPods() {
		this.endpoints.forEach(ServiceNetwork.Registration::close);
		this.pods.forEach((pod) -> pod.stop(0));
		new DynamicKubernetesApi("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", this.client)
			.delete(this.namespace.name());
	}

	@Test
	void theApiServerCallsAWebhookGivenByAServiceOnTheReadyPodsItSelects() throws Exception {
		String namespace = this.namespace.name();
		apply("cert-manager.io", "issuers", """
				apiVersion: cert-manager.io/v1
				kind: Issuer
				metadata: {name: selfsigned, namespace: %1$s}
				spec: {selfSigned: {}}
				""".formatted(namespace));
		apply("cert-manager.io", "certificates", """
				apiVersion: cert-manager.io/v1
				kind: Certificate
				metadata: {name: webhook, namespace: %1$s}
				spec:
				  secretName: webhook-tls
				  commonName: webhook.%1$s.svc
				  dnsNames: [webhook.%1$s.svc, webhook.%1$s.svc.cluster.local]
				  privateKey: {encoding: PKCS8}
				  issuerRef: {kind: Issuer, name: selfsigned}
				""".formatted(namespace));
		IssuedCertificate issued = new CertificateIssuer(this.client).issue(namespace, "webhook");
		AtomicBoolean firstReady = new AtomicBoolean(true);
		AtomicBoolean secondReady = new AtomicBoolean(true);
		startPod("first", issued, Map.of("app", "webhook"), firstReady);
		startPod("second", issued, Map.of("app", "webhook"), secondReady);
		// selects neither: another app's pod, ready, on the same namespace
		startPod("other", issued, Map.of("app", "other"), new AtomicBoolean(true));
		apply("", "services", """
				apiVersion: v1
				kind: Service
				metadata: {name: webhook, namespace: %1$s}
				spec:
				  selector: {app: webhook}
				  ports: [{name: https, port: 443, targetPort: https}]
				""".formatted(namespace));
		apply("admissionregistration.k8s.io", "validatingwebhookconfigurations", """
				apiVersion: admissionregistration.k8s.io/v1
				kind: ValidatingWebhookConfiguration
				metadata:
				  name: %1$s
				  annotations: {cert-manager.io/inject-ca-from: %1$s/webhook}
				webhooks:
				- name: configmaps.service-network.test
				  clientConfig:
				    service: {name: webhook, namespace: %1$s, path: /validate, port: 443}
				  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
				  objectSelector: {matchLabels: {service-network-tests: %1$s}}
				  failurePolicy: Fail
				  sideEffects: None
				  admissionReviewVersions: [v1]
				  timeoutSeconds: 5
				""".formatted(namespace));
		assertThat(new CertificateIssuer(this.client).injectCaBundles())
			.contains("validatingwebhookconfigurations/" + namespace);

		assertThat(this.server.serviceNetwork().routeServiceReferences())
			.contains("validatingwebhookconfigurations/" + namespace);
		JsonObject clientConfig = storedClientConfig();
		assertThat(clientConfig.get("url").getAsString())
			.isEqualTo("https://webhook." + namespace + ".svc:443/validate");
		assertThat(clientConfig.has("service")).isFalse();
		assertThat(Base64.getDecoder().decode(clientConfig.get("caBundle").getAsString()))
			.asString(StandardCharsets.US_ASCII)
			.isEqualTo(issued.caCrt());

		// both selected pods answer in turn, never the other app's
		AtomicReference<String> lastRefusal = new AtomicReference<>("none");
		try {
			await().atMost(CALLED).until(() -> {
				lastRefusal.set(createRefused());
				return this.answeredBy.contains("first") && this.answeredBy.contains("second");
			});
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("The pods were not both called; the API server's last refusal: " + lastRefusal,
					ex);
		}
		assertThat(this.answeredBy).doesNotContain("other");

		// an unready pod gets no new connection
		firstReady.set(false);
		this.answeredBy.clear();
		for (int i = 0; i < 4; i++) {
			assertThat(createRefused()).contains("denied by second");
		}
		assertThat(this.answeredBy).containsOnly("second");

		// none ready: the API server quotes the network's reason
		secondReady.set(false);
		assertThat(createRefused()).contains("Service " + namespace + "/webhook has no ready endpoint for port 443");
	}

	// every call is refused by the pod that answers it, so the refusal names the pod
	private String createRefused() {
		V1ConfigMap configMap = new V1ConfigMap()
			.metadata(new V1ObjectMeta().name("c-" + this.configMaps.incrementAndGet())
				.labels(Map.of("service-network-tests", this.namespace.name())));
		try {
			new CoreV1Api(this.client).createNamespacedConfigMap(this.namespace.name(), configMap).execute();
			throw new AssertionError("The webhook admitted " + configMap.getMetadata().getName());
		}
		catch (ApiException ex) {
			return ex.getResponseBody();
		}
	}

	private void startPod(String name, IssuedCertificate certificate, Map<String, String> labels, AtomicBoolean ready)
			throws IOException, GeneralSecurityException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		String ip = "127." + random.nextInt(1, 255) + "." + random.nextInt(256) + "." + random.nextInt(1, 255);
		HttpsServer pod = HttpsServer.create(new InetSocketAddress(ip, 0), 0);
		pod.createContext("/validate", (exchange) -> {
			try (InputStream body = exchange.getRequestBody()) {
				JsonObject request = JsonParser.parseString(new String(body.readAllBytes(), StandardCharsets.UTF_8))
					.getAsJsonObject()
					.getAsJsonObject("request");
				this.answeredBy.add(name);
				byte[] response = """
						{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
						 "response":{"uid":"%s","allowed":false,"status":{"message":"denied by %s"}}}"""
					.formatted(request.get("uid").getAsString(), name)
					.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().add("Content-Type", "application/json");
				// a connection per call, so that each call is routed anew
				exchange.getResponseHeaders().add("Connection", "close");
				exchange.sendResponseHeaders(200, response.length);
				exchange.getResponseBody().write(response);
			}
			exchange.close();
		});
		pod.setHttpsConfigurator(new HttpsConfigurator(sslContext(certificate)));
		pod.start();
		this.pods.add(pod);
		this.endpoints.add(this.server.serviceNetwork()
			.addPod(this.namespace.name(), name, ip, labels, Map.of("https", pod.getAddress().getPort()), ready::get));
	}

	private static SSLContext sslContext(IssuedCertificate certificate) throws IOException, GeneralSecurityException {
		String key = certificate.tlsKey().replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
		PrivateKey privateKey = KeyFactory.getInstance("RSA")
			.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(key)));
		Certificate[] chain = CertificateFactory.getInstance("X.509")
			.generateCertificates(new ByteArrayInputStream(certificate.tlsCrt().getBytes(StandardCharsets.US_ASCII)))
			.toArray(Certificate[]::new);
		KeyStore store = KeyStore.getInstance("PKCS12");
		store.load(null, null);
		store.setKeyEntry("pod", privateKey, new char[0], chain);
		KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keyManagers.init(store, new char[0]);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keyManagers.getKeyManagers(), null, null);
		return context;
	}

	private JsonObject storedClientConfig() {
		return new DynamicKubernetesApi("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations",
				this.client)
			.get(this.namespace.name())
			.getObject()
			.getRaw()
			.getAsJsonArray("webhooks")
			.get(0)
			.getAsJsonObject()
			.getAsJsonObject("clientConfig");
	}

	private void apply(String group, String plural, String yaml) {
		DynamicKubernetesObject object = Dynamics.newFromYaml(yaml);
		String version = group.isEmpty() ? "v1" : object.getApiVersion().substring(group.length() + 1);
		assertThat(new DynamicKubernetesApi(group, version, plural, this.client).create(object).isSuccess())
			.as("created %s", object.getKind())
			.isTrue();
	}

}
