package dev.kubereconciler.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import com.google.gson.JsonElement;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import io.kubernetes.client.util.generic.options.PatchOptions;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import dev.kubereconciler.test.CustomResourceDefinitions.Crd;

/**
 * Applies CustomResourceDefinitions by server-side apply and waits until the API server
 * serves them: established, and their resource listed.
 *
 * <p>
 * A CRD travels as its own JSON: client-java's {@code V1JSONSchemaProps} model adds empty
 * fields that API servers reject.
 */
final class CrdInstaller {

	/**
	 * How long a CRD may take to be served; the API server usually needs under a second.
	 */
	static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String FIELD_MANAGER = "kube-reconciler-test";

	private final ApiClient client;

	private final Duration timeout;

	CrdInstaller(ApiClient client, Duration timeout) {
		this.client = client;
		this.timeout = timeout;
	}

	/**
	 * Apply every CRD, then wait until each is served.
	 * @param crds the CRDs
	 * @throws IllegalStateException naming the CRD the API server refused, or did not
	 * serve in time
	 */
	void install(List<Crd> crds) {
		DynamicKubernetesApi api = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client);
		PatchOptions options = new PatchOptions();
		options.setFieldManager(FIELD_MANAGER);
		options.setForce(true);
		// all applied first, so that the API server establishes them side by side
		for (Crd crd : crds) {
			KubernetesApiResponse<DynamicKubernetesObject> response = api.patch(crd.name(),
					V1Patch.PATCH_FORMAT_APPLY_YAML, new V1Patch(crd.json()), options);
			if (!response.isSuccess()) {
				throw new IllegalStateException("The API server refused the CRD " + crd.name() + " from " + crd.source()
						+ ": " + response.getHttpStatusCode() + " " + response.getStatus());
			}
		}
		for (Crd crd : crds) {
			awaitServed(api, crd);
		}
	}

	private void awaitServed(DynamicKubernetesApi api, Crd crd) {
		DynamicKubernetesApi resources = new DynamicKubernetesApi(crd.group(), crd.version(), crd.plural(),
				this.client);
		AtomicReference<String> lastState = new AtomicReference<>("not read yet");
		try {
			Awaitility.await("CRD " + crd.name())
				.atMost(this.timeout)
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(50))
				.until(() -> {
					KubernetesApiResponse<DynamicKubernetesObject> read = api.get(crd.name());
					if (!read.isSuccess()) {
						lastState.set("read answered " + read.getHttpStatusCode());
						return false;
					}
					JsonElement status = read.getObject().getRaw().get("status");
					lastState.set("status " + status);
					if (!isEstablished(status)) {
						return false;
					}
					// established is not yet served: the resource's handler may lag
					// behind by a moment
					ListOptions one = new ListOptions();
					one.setLimit(1);
					int code = resources.list(one).getHttpStatusCode();
					lastState.set("established, but listing " + crd.plural() + " answered " + code);
					return code == 200;
				});
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException("The CRD " + crd.name() + " from " + crd.source()
					+ " was not served within " + this.timeout + "; last seen: " + lastState.get(), ex);
		}
	}

	private static boolean isEstablished(JsonElement status) {
		if (status == null || !status.isJsonObject()) {
			return false;
		}
		// a CRD just created may answer with "conditions": null
		JsonElement conditions = status.getAsJsonObject().get("conditions");
		if (conditions == null || !conditions.isJsonArray()) {
			return false;
		}
		for (JsonElement element : conditions.getAsJsonArray()) {
			if ("Established".equals(element.getAsJsonObject().get("type").getAsString())
					&& "True".equals(element.getAsJsonObject().get("status").getAsString())) {
				return true;
			}
		}
		return false;
	}

}
