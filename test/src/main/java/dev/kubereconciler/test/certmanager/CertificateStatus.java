package dev.kubereconciler.test.certmanager;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * The status cert-manager writes on a Certificate once it is issued: the {@code Ready}
 * condition, the validity, when it will be renewed and the revision.
 */
final class CertificateStatus {

	private static final int ATTEMPTS = 5;

	private CertificateStatus() {
	}

	/**
	 * Write the status of an issued certificate, retrying on conflicts.
	 * @param client the client
	 * @param certificate the Certificate as read before issuing
	 * @param issued what was issued
	 * @param now when
	 */
	static void write(ApiClient client, DynamicKubernetesObject certificate, IssuedCertificate issued, Instant now) {
		DynamicKubernetesObject current = certificate;
		for (int attempt = 1;; attempt++) {
			current.getRaw().add("status", status(current, issued, now));
			try {
				// a PUT of the status subresource: client-java's updateStatus patches a
				// status that must already exist
				new CustomObjectsApi(client)
					.replaceNamespacedCustomObjectStatus("cert-manager.io", "v1", issued.namespace(), "certificates",
							issued.name(), current.getRaw())
					.execute();
				return;
			}
			catch (ApiException ex) {
				if (ex.getCode() != 409 || attempt == ATTEMPTS) {
					throw new IllegalStateException("Could not write the status of Certificate " + issued.namespace()
							+ "/" + issued.name() + ": " + ex.getResponseBody(), ex);
				}
			}
			current = CertificateIssuer.certificates(client).get(issued.namespace(), issued.name()).getObject();
		}
	}

	private static JsonObject status(DynamicKubernetesObject certificate, IssuedCertificate issued, Instant now) {
		JsonObject ready = new JsonObject();
		ready.addProperty("type", "Ready");
		ready.addProperty("status", "True");
		ready.addProperty("reason", "Ready");
		ready.addProperty("message", "Certificate is up to date and has not expired");
		ready.addProperty("lastTransitionTime", time(now));
		Long generation = certificate.getMetadata().getGeneration();
		if (generation != null) {
			ready.addProperty("observedGeneration", generation);
		}
		JsonArray conditions = new JsonArray();
		conditions.add(ready);
		JsonObject status = new JsonObject();
		status.add("conditions", conditions);
		status.addProperty("notBefore", time(issued.notBefore()));
		status.addProperty("notAfter", time(issued.notAfter()));
		status.addProperty("renewalTime", time(issued.renewalTime()));
		status.addProperty("revision", issued.revision());
		return status;
	}

	private static String time(Instant instant) {
		return instant.truncatedTo(ChronoUnit.SECONDS).toString();
	}

}
