package dev.kubereconciler.autoconfigure.manifests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesType;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1SecretVolumeSource;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.autoconfigure.webhook.WebhookProperties;
import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.webhook.registration.WebhookConfigurations;
import dev.kubereconciler.webhook.server.WebhookServer;
import dev.kubereconciler.webhook.Webhooks;

/**
 * The manifests of an application's webhooks: the Service in front of the webhook port,
 * cert-manager's Issuer and Certificate for its serving certificate, the validating and
 * mutating configurations pointing at the Service, whose CA cert-manager's CA injector
 * fills in, and what the Deployment needs to serve them.
 *
 * <p>
 * The certificate's Secret is mounted where controller-runtime's is
 * ({@code /tmp/k8s-webhook-server/serving-certs}) and read through a Spring SSL bundle
 * named {@code webhook} with {@code reload-on-update}, so that a renewal reaches the
 * running server with no restart.
 */
final class WebhookManifests {

	/** The folder cert-manager's Secret is mounted at. */
	static final String CERT_DIR = "/tmp/k8s-webhook-server/serving-certs";

	static final String SSL_BUNDLE = "webhook";

	private static final String PORT_NAME = "webhook";

	private final Webhooks webhooks;

	private final WebhookProperties properties;

	private final String name;

	private final String namespace;

	WebhookManifests(Webhooks webhooks, WebhookProperties properties, String name, String namespace) {
		this.webhooks = webhooks;
		this.properties = properties;
		this.name = name;
		this.namespace = namespace;
	}

	/**
	 * Return the name of the Service and the Certificate.
	 * @return the name
	 */
	String serviceName() {
		return this.name + "-webhook";
	}

	/**
	 * Return how the API server reaches the webhook server: through the Service, on port
	 * 443, with the CA that cert-manager's CA injector writes.
	 * @return the client config
	 */
	WebhookClientConfig clientConfig() {
		return WebhookClientConfig.service(this.namespace, serviceName(), 443);
	}

	/**
	 * Return the annotation that has cert-manager's CA injector write the CA of the
	 * serving certificate into a webhook configuration or a CRD's conversion.
	 * @return the annotation
	 */
	Map<String, String> caInjection() {
		return Map.of("cert-manager.io/inject-ca-from", this.namespace + "/" + serviceName());
	}

	/**
	 * Return a CRD with the annotation that has cert-manager's CA injector fill in the CA
	 * of its conversion webhook.
	 * @param crd the CRD's YAML
	 * @return the YAML with the annotation
	 */
	@SuppressWarnings("unchecked")
	String withCaInjection(String crd) {
		org.yaml.snakeyaml.Yaml yaml = new org.yaml.snakeyaml.Yaml(ManifestYaml.blockStyle());
		Map<String, Object> document = yaml.load(crd);
		// every CRD has metadata, as the API server requires a name
		Map<String, Object> metadata = (Map<String, Object>) Objects.requireNonNull(document.get("metadata"));
		Map<String, Object> annotations = new LinkedHashMap<>();
		if (metadata.get("annotations") instanceof Map<?, ?> existing) {
			annotations.putAll((Map<String, Object>) existing);
		}
		annotations.putAll(caInjection());
		metadata.put("annotations", annotations);
		return yaml.dump(document);
	}

	/**
	 * Return the files: {@code webhook-service.yaml}, {@code webhook-certificate.yaml}
	 * and {@code webhooks.yaml}.
	 * @return the YAML of each file
	 */
	Map<String, String> files() {
		Map<String, String> files = new LinkedHashMap<>();
		files.put("webhook-service.yaml", ManifestYaml.dump(service()));
		files.put("webhook-certificate.yaml", certificate());
		List<KubernetesType> configurations = new ArrayList<>();
		WebhookConfigurations settings = new WebhookConfigurations(this.name, clientConfig(),
				this.properties.getFailurePolicy().value(), this.properties.getTimeout(), null,
				Map.of("app.kubernetes.io/name", this.name));
		addWithCaInjection(configurations, settings.validating(this.webhooks));
		addWithCaInjection(configurations, settings.mutating(this.webhooks));
		if (!configurations.isEmpty()) {
			files.put("webhooks.yaml", ManifestYaml.dumpAll(configurations.iterator()));
		}
		return files;
	}

	/**
	 * Add what the webhook server needs to the application's container and pod: its port,
	 * the certificate's Secret and the SSL bundle that reads it.
	 * @param container the container
	 * @param pod the pod
	 */
	void addTo(V1Container container, V1PodSpec pod) {
		List<V1ContainerPort> ports = new ArrayList<>(
				(container.getPorts() != null) ? container.getPorts() : List.of());
		ports.add(new V1ContainerPort().name(PORT_NAME).containerPort(port()));
		container.ports(ports);
		container.volumeMounts(List.of(new V1VolumeMount().name("webhook-certs").mountPath(CERT_DIR).readOnly(true)));
		String bundle = "spring.ssl.bundle.pem." + SSL_BUNDLE + ".";
		List<V1EnvVar> env = new ArrayList<>((container.getEnv() != null) ? container.getEnv() : List.of());
		env.add(EnvironmentVariables.of(bundle + "keystore.certificate", "file:" + CERT_DIR + "/tls.crt"));
		env.add(EnvironmentVariables.of(bundle + "keystore.private-key", "file:" + CERT_DIR + "/tls.key"));
		env.add(EnvironmentVariables.of(bundle + "reload-on-update", true));
		env.add(EnvironmentVariables.of("kube-reconciler.webhooks.ssl-bundle", SSL_BUNDLE));
		// the container port: with 0 (a free port) the Service could not reach the server
		env.add(EnvironmentVariables.of("kube-reconciler.webhooks.port", port()));
		container.env(env);
		pod.volumes(List
			.of(new V1Volume().name("webhook-certs").secret(new V1SecretVolumeSource().secretName(secretName()))));
	}

	private int port() {
		return (this.properties.getPort() != 0) ? this.properties.getPort() : WebhookServer.DEFAULT_PORT;
	}

	private String secretName() {
		return this.name + "-webhook-tls";
	}

	private V1Service service() {
		Map<String, String> labels = Map.of("app.kubernetes.io/name", this.name);
		return new V1Service().apiVersion("v1")
			.kind("Service")
			.metadata(new V1ObjectMeta().name(serviceName()).namespace(this.namespace).labels(labels))
			.spec(new V1ServiceSpec().selector(labels)
				.ports(List.of(new V1ServicePort().name(PORT_NAME).port(443).targetPort(new IntOrString(PORT_NAME)))));
	}

	// cert-manager's resources have no client-java model: written as YAML text
	// a subject, since a selfSigned certificate's issuer is its subject, and Java refuses
	// a certificate whose issuer is empty ("Empty issuer DN not allowed")
	private String certificate() {
		String service = serviceName();
		return """
				apiVersion: cert-manager.io/v1
				kind: Issuer
				metadata:
				  name: %1$s-selfsigned
				  namespace: %2$s
				spec:
				  selfSigned: {}
				---
				apiVersion: cert-manager.io/v1
				kind: Certificate
				metadata:
				  name: %3$s
				  namespace: %2$s
				spec:
				  secretName: %4$s
				  commonName: %3$s.%2$s.svc
				  dnsNames:
				  - %3$s.%2$s.svc
				  - %3$s.%2$s.svc.cluster.local
				  issuerRef:
				    kind: Issuer
				    name: %1$s-selfsigned
				  duration: %5$s
				  renewBefore: %6$s
				""".formatted(this.name, this.namespace, service, secretName(), hours(Duration.ofDays(90)),
				hours(Duration.ofDays(30)));
	}

	private static String hours(Duration duration) {
		return duration.toHours() + "h";
	}

	private void addWithCaInjection(List<KubernetesType> configurations, @Nullable KubernetesType configuration) {
		if (configuration instanceof V1ValidatingWebhookConfiguration validating) {
			validating.getMetadata().annotations(caInjection());
			configurations.add(validating);
		}
		if (configuration instanceof V1MutatingWebhookConfiguration mutating) {
			mutating.getMetadata().annotations(caInjection());
			configurations.add(mutating);
		}
	}

}
