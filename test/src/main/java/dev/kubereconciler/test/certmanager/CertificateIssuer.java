package dev.kubereconciler.test.certmanager;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * cert-manager's part for a test: issues each {@code cert-manager.io/v1} Certificate on
 * the API server into the Secret it names, with a {@code selfSigned} or {@code ca} Issuer
 * or ClusterIssuer, renews it on demand, and injects its CA into every object annotated
 * {@code cert-manager.io/inject-ca-from} or
 * {@code cert-manager.io/inject-ca-from-secret}, as cert-manager's controller and
 * cainjector do.
 *
 * <p>
 * The Certificate and Issuer kinds need their CRDs on the server:
 * {@link CertManagerCrds}.
 */
public final class CertificateIssuer {

	/**
	 * Where the CA Secret of a {@code ca} ClusterIssuer is read: cert-manager's default
	 * {@code --cluster-resource-namespace}.
	 */
	public static final String CLUSTER_RESOURCE_NAMESPACE = "cert-manager";

	private static final String GROUP = "cert-manager.io";

	private final ApiClient client;

	private final Clock clock;

	private final boolean mergeCaBundles;

	private final CertificateSigner signer = new CertificateSigner();

	private final CaInjector injector;

	/**
	 * Create an issuer that writes through the given client, with the system clock, and
	 * that replaces CA bundles as cert-manager does by default.
	 * @param client a client allowed to read Certificates and Issuers, write Secrets and
	 * Certificates' status, and update the objects it injects
	 */
	public CertificateIssuer(ApiClient client) {
		this(client, Clock.systemUTC(), false);
	}

	private CertificateIssuer(ApiClient client, Clock clock, boolean mergeCaBundles) {
		this.client = client;
		this.clock = clock;
		this.mergeCaBundles = mergeCaBundles;
		this.injector = new CaInjector(client, mergeCaBundles, clock);
	}

	/**
	 * Return an issuer like this one that dates certificates by the given clock.
	 * @param clock the clock
	 * @return the issuer
	 */
	public CertificateIssuer withClock(Clock clock) {
		return new CertificateIssuer(this.client, clock, this.mergeCaBundles);
	}

	/**
	 * Return an issuer like this one that merges a new CA into a bundle instead of
	 * replacing it, dropping only expired certificates, as cert-manager's cainjector does
	 * with its {@code CAInjectorMerging} feature gate (alpha in 1.17, off by default).
	 * @return the issuer
	 */
	public CertificateIssuer withCaBundlesMerged() {
		return new CertificateIssuer(this.client, this.clock, true);
	}

	/**
	 * Issue every Certificate of the server whose Secret is missing or out of date with
	 * its spec, then inject the CAs.
	 * @return every Certificate's current certificate
	 */
	public List<IssuedCertificate> issueAll() {
		return issueAll(certificates(this.client).list());
	}

	/**
	 * Issue every Certificate of a namespace whose Secret is missing or out of date with
	 * its spec, then inject the CAs.
	 * @param namespace the namespace
	 * @return every Certificate's current certificate
	 */
	public List<IssuedCertificate> issueAll(String namespace) {
		return issueAll(certificates(this.client).list(namespace));
	}

	/**
	 * Issue one Certificate if its Secret is missing or out of date with its spec, then
	 * inject the CAs.
	 * @param namespace the Certificate's namespace
	 * @param name its name
	 * @return its current certificate
	 */
	public IssuedCertificate issue(String namespace, String name) {
		IssuedCertificate issued = issue(certificate(namespace, name), false);
		injectCaBundles();
		return issued;
	}

	/**
	 * Renew one Certificate now, as {@code cmctl renew} has cert-manager do: a new
	 * certificate, with a new key unless {@code spec.privateKey.rotationPolicy} is
	 * {@code Never}, written into its Secret; then the CAs are injected again, so that a
	 * selfSigned certificate's new CA replaces the old one in every bundle (or joins it,
	 * {@link #withCaBundlesMerged() merged}).
	 * @param namespace the Certificate's namespace
	 * @param name its name
	 * @return the new certificate
	 */
	public IssuedCertificate renew(String namespace, String name) {
		IssuedCertificate issued = issue(certificate(namespace, name), true);
		injectCaBundles();
		return issued;
	}

	/**
	 * Inject the CA of each annotated object's source into it, as cert-manager's
	 * cainjector does: webhooks' {@code clientConfig.caBundle} of validating and mutating
	 * webhook configurations, {@code spec.conversion.webhook.clientConfig.caBundle} of
	 * CRDs and {@code spec.caBundle} of APIServices. Objects whose source is missing, or
	 * whose Secret does not belong to the Certificate, are left alone.
	 * @return the objects whose bundle changed, as {@code <resource>/<name>}
	 */
	public List<String> injectCaBundles() {
		return this.injector.injectAll();
	}

	static DynamicKubernetesApi certificates(ApiClient client) {
		return new DynamicKubernetesApi(GROUP, "v1", "certificates", client);
	}

	private List<IssuedCertificate> issueAll(KubernetesApiResponse<DynamicKubernetesListObject> list) {
		if (!list.isSuccess()) {
			throw new IllegalStateException("Could not list Certificates: " + list.getStatus().getMessage()
					+ missingCrdHint(list.getHttpStatusCode()));
		}
		List<DynamicKubernetesObject> pending = new ArrayList<>(list.getObject().getItems());
		List<IssuedCertificate> issued = new ArrayList<>();
		// a CA Issuer's Secret may be a Certificate of the list: issue in rounds until
		// every CA is there, as cert-manager's controllers get there by retrying
		while (!pending.isEmpty()) {
			List<DynamicKubernetesObject> waiting = new ArrayList<>();
			IssuerNotReadyException firstWait = null;
			for (DynamicKubernetesObject certificate : pending) {
				try {
					issued.add(issue(certificate, false));
				}
				catch (IssuerNotReadyException ex) {
					waiting.add(certificate);
					firstWait = (firstWait != null) ? firstWait : ex;
				}
			}
			if (firstWait != null && waiting.size() == pending.size()) {
				throw firstWait;
			}
			pending = waiting;
		}
		injectCaBundles();
		return issued;
	}

	private DynamicKubernetesObject certificate(String namespace, String name) {
		KubernetesApiResponse<DynamicKubernetesObject> response = certificates(this.client).get(namespace, name);
		if (!response.isSuccess()) {
			throw new IllegalStateException("Could not read Certificate " + namespace + "/" + name + ": "
					+ response.getStatus().getMessage() + missingCrdHint(response.getHttpStatusCode()));
		}
		return response.getObject();
	}

	private IssuedCertificate issue(DynamicKubernetesObject certificate, boolean renew) {
		CertificateSpec spec = CertificateSpec.of(certificate.getRaw());
		V1Secret secret = readSecret(spec.namespace(), spec.secretName());
		int revision = revision(certificate);
		if (!renew && secret != null && SecretContents.isUpToDate(secret, spec)) {
			return SecretContents.read(secret, spec, Math.max(revision, 1));
		}
		Signer issuer = signer(spec);
		PrivateKey existingKey = (secret != null && "Never".equals(spec.rotationPolicy()))
				? SecretContents.privateKey(secret) : null;
		Instant now = this.clock.instant();
		KeyPair key;
		if (existingKey != null) {
			key = CertificateSigner.pair(existingKey,
					SecretContents.certificates(Objects.requireNonNull(secret)).get(0));
		}
		else {
			key = this.signer.generateKey(spec);
		}
		X509Certificate signed = (issuer.certificates().isEmpty())
				? this.signer.sign(spec, key.getPublic(), null, key.getPrivate(), now)
				: this.signer.sign(spec, key.getPublic(), issuer.certificates().get(0), issuer.key(), now);
		List<X509Certificate> chain = new ArrayList<>();
		chain.add(signed);
		chain.addAll(issuer.certificates());
		X509Certificate root = chain.get(chain.size() - 1);
		if (chain.size() > 1 && isSelfSigned(root)) {
			// cert-manager leaves a self-signed root out of tls.crt: it is ca.crt
			chain.remove(chain.size() - 1);
		}
		IssuedCertificate issued = new IssuedCertificate(spec.namespace(), spec.name(), spec.secretName(),
				CertificateSigner.certificatesPem(chain),
				CertificateSigner.privateKeyPem(key.getPrivate(), spec.keyEncoding()),
				CertificateSigner.certificatesPem(List.of(root)), signed.getNotBefore().toInstant(),
				signed.getNotAfter().toInstant(), signed.getNotAfter().toInstant().minus(spec.renewBefore()),
				revision + 1);
		writeSecret(secret, SecretContents.secret(spec, issued));
		CertificateStatus.write(this.client, certificate, issued, now);
		return issued;
	}

	private Signer signer(CertificateSpec spec) {
		boolean cluster = "ClusterIssuer".equals(spec.issuerKind());
		if (!GROUP.equals(spec.issuerGroup()) || !(cluster || "Issuer".equals(spec.issuerKind()))) {
			throw new IllegalStateException("Certificate " + spec.key() + " names issuer " + spec.issuerGroup() + "/"
					+ spec.issuerKind() + " " + spec.issuerName() + ": CertificateIssuer signs with cert-manager.io's "
					+ "Issuer and ClusterIssuer only");
		}
		DynamicKubernetesApi issuers = new DynamicKubernetesApi(GROUP, "v1", cluster ? "clusterissuers" : "issuers",
				this.client);
		KubernetesApiResponse<DynamicKubernetesObject> response = cluster ? issuers.get(spec.issuerName())
				: issuers.get(spec.namespace(), spec.issuerName());
		String issuerKey = spec.issuerKind() + " " + (cluster ? "" : spec.namespace() + "/") + spec.issuerName();
		if (!response.isSuccess()) {
			throw new IssuerNotReadyException("Certificate " + spec.key() + " names " + issuerKey + ", which could not "
					+ "be read (" + response.getStatus().getMessage() + "): apply it before issuing");
		}
		JsonObject issuerSpec = response.getObject().getRaw().getAsJsonObject("spec");
		if (issuerSpec != null && issuerSpec.has("selfSigned")) {
			return new Signer(List.of(), null);
		}
		if (issuerSpec != null && issuerSpec.get("ca") instanceof JsonObject ca && ca.has("secretName")) {
			String namespace = cluster ? CLUSTER_RESOURCE_NAMESPACE : spec.namespace();
			String secretName = ca.get("secretName").getAsString();
			V1Secret secret = readSecret(namespace, secretName);
			PrivateKey key = (secret != null) ? SecretContents.privateKey(secret) : null;
			if (secret == null || key == null) {
				throw new IssuerNotReadyException(issuerKey + " signs with the CA of Secret " + namespace + "/"
						+ secretName + ", which is missing or has no tls.crt and tls.key: create it, or issue the "
						+ "Certificate that writes it");
			}
			return new Signer(SecretContents.certificates(secret), key);
		}
		throw new IllegalStateException(issuerKey + " is neither selfSigned nor ca: CertificateIssuer signs with "
				+ "those two kinds of issuer only");
	}

	private @Nullable V1Secret readSecret(String namespace, String name) {
		try {
			return new CoreV1Api(this.client).readNamespacedSecret(name, namespace).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw new IllegalStateException("Could not read Secret " + namespace + "/" + name, ex);
		}
	}

	private void writeSecret(@Nullable V1Secret existing, V1Secret secret) {
		V1ObjectMeta metadata = Objects.requireNonNull(secret.getMetadata());
		CoreV1Api api = new CoreV1Api(this.client);
		try {
			if (existing == null) {
				api.createNamespacedSecret(metadata.getNamespace(), secret).execute();
				return;
			}
			// cert-manager owns its keys, labels and annotations; the rest stays as it is
			Map<String, byte[]> data = new LinkedHashMap<>(
					(existing.getData() != null) ? existing.getData() : Map.of());
			data.putAll(Objects.requireNonNull(secret.getData()));
			existing.data(data);
			V1ObjectMeta existingMetadata = Objects.requireNonNull(existing.getMetadata());
			existingMetadata.labels(merge(existingMetadata.getLabels(), metadata.getLabels()));
			existingMetadata.annotations(merge(existingMetadata.getAnnotations(), metadata.getAnnotations()));
			api.replaceNamespacedSecret(metadata.getName(), metadata.getNamespace(), existing).execute();
		}
		catch (ApiException ex) {
			throw new IllegalStateException("Could not write Secret " + metadata.getNamespace() + "/"
					+ metadata.getName() + ": " + ex.getResponseBody(), ex);
		}
	}

	private static Map<String, String> merge(@Nullable Map<String, String> existing,
			@Nullable Map<String, String> ours) {
		Map<String, String> merged = new LinkedHashMap<>((existing != null) ? existing : Map.of());
		merged.putAll((ours != null) ? ours : Map.of());
		return merged;
	}

	private static int revision(DynamicKubernetesObject certificate) {
		return (certificate.getRaw().get("status") instanceof JsonObject status && status.has("revision"))
				? status.get("revision").getAsInt() : 0;
	}

	private static boolean isSelfSigned(X509Certificate certificate) {
		return certificate.getSubjectX500Principal().equals(certificate.getIssuerX500Principal());
	}

	private static String missingCrdHint(int status) {
		return (status == 404) ? " (is the Certificate CRD installed? See CertManagerCrds)" : "";
	}

	static String ascii(byte[] bytes) {
		return new String(bytes, StandardCharsets.US_ASCII);
	}

	/**
	 * What signs: the CA's certificates and key, or nothing for a self-signed
	 * certificate.
	 */
	private record Signer(List<X509Certificate> certificates, @Nullable PrivateKey caKey) {

		PrivateKey key() {
			return Objects.requireNonNull(this.caKey);
		}

	}

	/**
	 * The issuer of a Certificate is missing or has no CA yet; another round may fix it.
	 */
	private static final class IssuerNotReadyException extends IllegalStateException {

		IssuerNotReadyException(String message) {
			super(message);
		}

	}

}
