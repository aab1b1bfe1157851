package dev.kubereconciler.test.certmanager;

import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Writes CA bundles into the objects that ask for them by annotation, as cert-manager's
 * cainjector does: validating and mutating webhook configurations, CRDs with a conversion
 * webhook, and APIServices.
 */
final class CaInjector {

	static final String INJECT_CA_FROM = "cert-manager.io/inject-ca-from";

	static final String INJECT_CA_FROM_SECRET = "cert-manager.io/inject-ca-from-secret";

	static final String ALLOW_DIRECT_INJECTION = "cert-manager.io/allow-direct-injection";

	static final String CERTIFICATE_NAME = "cert-manager.io/certificate-name";

	private static final int ATTEMPTS = 5;

	private final ApiClient client;

	private final boolean merge;

	private final Clock clock;

	CaInjector(ApiClient client, boolean merge, Clock clock) {
		this.client = client;
		this.merge = merge;
		this.clock = clock;
	}

	/**
	 * Inject the CA into every annotated object whose source has one.
	 * @return the objects whose bundle changed, as {@code <resource>/<name>}
	 */
	List<String> injectAll() {
		List<String> injected = new ArrayList<>();
		for (Target target : Target.values()) {
			KubernetesApiResponse<DynamicKubernetesListObject> list = target.api(this.client).list();
			if (!list.isSuccess()) {
				// APIServices need the aggregator, which a bare API server may lack
				continue;
			}
			for (DynamicKubernetesObject object : list.getObject().getItems()) {
				Map<String, String> annotations = object.getMetadata().getAnnotations();
				boolean asks = annotations != null
						&& (annotations.containsKey(INJECT_CA_FROM) || annotations.containsKey(INJECT_CA_FROM_SECRET));
				if (asks && inject(target, object.getMetadata().getName())) {
					injected.add(target.resource + "/" + object.getMetadata().getName());
				}
			}
		}
		return injected;
	}

	private boolean inject(Target target, String name) {
		DynamicKubernetesApi api = target.api(this.client);
		for (int attempt = 1;; attempt++) {
			KubernetesApiResponse<DynamicKubernetesObject> current = api.get(name);
			if (!current.isSuccess()) {
				return false;
			}
			DynamicKubernetesObject object = current.getObject();
			Optional<byte[]> ca = readCa(object);
			if (ca.isEmpty()) {
				return false;
			}
			List<JsonObject> clientConfigs = target.clientConfigs.apply(object.getRaw());
			boolean changed = false;
			for (JsonObject clientConfig : clientConfigs) {
				byte[] existing = clientConfig.has("caBundle")
						? Base64.getDecoder().decode(clientConfig.get("caBundle").getAsString()) : new byte[0];
				byte[] bundle = this.merge ? merged(existing, ca.get()) : ca.get();
				if (!Arrays.equals(existing, bundle)) {
					clientConfig.addProperty("caBundle", Base64.getEncoder().encodeToString(bundle));
					changed = true;
				}
			}
			if (!changed) {
				return false;
			}
			KubernetesApiResponse<DynamicKubernetesObject> updated = api.update(object);
			if (updated.isSuccess()) {
				return true;
			}
			if (updated.getHttpStatusCode() != 409 || attempt == ATTEMPTS) {
				throw new IllegalStateException("Could not inject the CA into " + target.resource + " " + name + ": "
						+ updated.getStatus().getMessage());
			}
		}
	}

	// cert-manager's cainjector injects nothing when the source is missing or not its
	// own; it waits for the source to change
	private Optional<byte[]> readCa(DynamicKubernetesObject object) {
		Map<String, String> annotations = object.getMetadata().getAnnotations();
		if (annotations == null) {
			return Optional.empty();
		}
		String fromCertificate = annotations.get(INJECT_CA_FROM);
		if (fromCertificate != null) {
			String[] key = fromCertificate.split("/", 2);
			if (key.length != 2) {
				return Optional.empty();
			}
			KubernetesApiResponse<DynamicKubernetesObject> certificate = CertificateIssuer.certificates(this.client)
				.get(key[0], key[1]);
			if (!certificate.isSuccess()) {
				return Optional.empty();
			}
			String secretName = certificate.getObject()
				.getRaw()
				.getAsJsonObject("spec")
				.get("secretName")
				.getAsString();
			return readSecret(key[0], secretName)
				.filter((secret) -> key[1].equals(annotation(secret, CERTIFICATE_NAME)))
				.flatMap(CaInjector::caCrt);
		}
		String fromSecret = annotations.get(INJECT_CA_FROM_SECRET);
		if (fromSecret != null) {
			String[] key = fromSecret.split("/", 2);
			return (key.length != 2) ? Optional.empty()
					: readSecret(key[0], key[1])
						.filter((secret) -> "true".equals(annotation(secret, ALLOW_DIRECT_INJECTION)))
						.flatMap(CaInjector::caCrt);
		}
		return Optional.empty();
	}

	private Optional<V1Secret> readSecret(String namespace, String name) {
		try {
			return Optional.of(new CoreV1Api(this.client).readNamespacedSecret(name, namespace).execute());
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return Optional.empty();
			}
			throw new IllegalStateException("Could not read Secret " + namespace + "/" + name, ex);
		}
	}

	private static @Nullable String annotation(V1Secret secret, String name) {
		Map<String, String> annotations = secret.getMetadata().getAnnotations();
		return (annotations != null) ? annotations.get(name) : null;
	}

	private static Optional<byte[]> caCrt(V1Secret secret) {
		return Optional.ofNullable(secret.getData()).map((data) -> data.get("ca.crt"));
	}

	// the CAInjectorMerging feature gate of cert-manager 1.17 on: the new CA joins the
	// bundle, and only expired certificates leave it, so that a server still serving the
	// previous certificate keeps being trusted
	private byte[] merged(byte[] existing, byte[] ca) {
		List<X509Certificate> bundle = new ArrayList<>();
		for (X509Certificate certificate : CertificateSigner
			.readCertificates(new String(existing, StandardCharsets.US_ASCII))) {
			if (certificate.getNotAfter().toInstant().isAfter(this.clock.instant())) {
				bundle.add(certificate);
			}
		}
		for (X509Certificate certificate : CertificateSigner
			.readCertificates(new String(ca, StandardCharsets.US_ASCII))) {
			if (bundle.stream().noneMatch((kept) -> sameEncoding(kept, certificate))) {
				bundle.add(certificate);
			}
		}
		return CertificateSigner.certificatesPem(bundle).getBytes(StandardCharsets.US_ASCII);
	}

	private static boolean sameEncoding(X509Certificate first, X509Certificate second) {
		try {
			return Arrays.equals(first.getEncoded(), second.getEncoded());
		}
		catch (CertificateEncodingException ex) {
			return false;
		}
	}

	private static List<JsonObject> webhookClientConfigs(JsonObject configuration) {
		List<JsonObject> clientConfigs = new ArrayList<>();
		if (configuration.get("webhooks") instanceof JsonArray webhooks) {
			for (JsonElement webhook : webhooks) {
				if (webhook.getAsJsonObject().get("clientConfig") instanceof JsonObject clientConfig) {
					clientConfigs.add(clientConfig);
				}
			}
		}
		return clientConfigs;
	}

	private static List<JsonObject> conversionClientConfig(JsonObject crd) {
		return (crd.get("spec") instanceof JsonObject spec && spec.get("conversion") instanceof JsonObject conversion
				&& conversion.get("webhook") instanceof JsonObject webhook
				&& webhook.get("clientConfig") instanceof JsonObject clientConfig) ? List.of(clientConfig) : List.of();
	}

	private static List<JsonObject> apiServiceSpec(JsonObject apiService) {
		return (apiService.get("spec") instanceof JsonObject spec) ? List.of(spec) : List.of();
	}

	private enum Target {

		VALIDATING("admissionregistration.k8s.io", "validatingwebhookconfigurations", CaInjector::webhookClientConfigs),

		MUTATING("admissionregistration.k8s.io", "mutatingwebhookconfigurations", CaInjector::webhookClientConfigs),

		CRD("apiextensions.k8s.io", "customresourcedefinitions", CaInjector::conversionClientConfig),

		API_SERVICE("apiregistration.k8s.io", "apiservices", CaInjector::apiServiceSpec);

		private final String group;

		private final String resource;

		private final Function<JsonObject, List<JsonObject>> clientConfigs;

		Target(String group, String resource, Function<JsonObject, List<JsonObject>> clientConfigs) {
			this.group = group;
			this.resource = resource;
			this.clientConfigs = clientConfigs;
		}

		DynamicKubernetesApi api(ApiClient client) {
			return new DynamicKubernetesApi(this.group, "v1", this.resource, client);
		}

	}

}
