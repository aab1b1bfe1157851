package dev.kubereconciler.crd;

import java.time.Duration;
import java.util.List;

import com.google.gson.JsonElement;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import io.kubernetes.client.util.generic.options.PatchOptions;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.crd.CrdFiles.Crd;
import dev.kubereconciler.time.Sleeper;

/**
 * Applies CustomResourceDefinitions by server-side apply and waits until the API server
 * serves them: established, and their resource listed.
 *
 * <p>
 * A CRD travels as its own JSON: client-java's {@code V1JSONSchemaProps} model adds empty
 * fields that API servers reject.
 */
public final class CrdInstaller {

	/**
	 * How long a CRD may take to be served; the API server usually needs under a second.
	 */
	public static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final long POLL_NANOS = Duration.ofMillis(50).toNanos();

	private final ApiClient client;

	private final String fieldManager;

	private final Duration timeout;

	private final Sleeper sleeper;

	/**
	 * Create an installer that waits up to {@link #TIMEOUT} in real time.
	 * @param client the client
	 * @param fieldManager the field manager of the applies
	 */
	public CrdInstaller(ApiClient client, String fieldManager) {
		this(client, fieldManager, TIMEOUT, Sleeper.system());
	}

	/**
	 * Create an installer.
	 * @param client the client
	 * @param fieldManager the field manager of the applies
	 * @param timeout how long each CRD may take to be served
	 * @param sleeper the time between two looks
	 */
	public CrdInstaller(ApiClient client, String fieldManager, Duration timeout, Sleeper sleeper) {
		this.client = client;
		this.fieldManager = fieldManager;
		this.timeout = timeout;
		this.sleeper = sleeper;
	}

	/**
	 * Apply every CRD, then wait until each is served.
	 * @param crds the CRDs
	 * @throws IllegalStateException naming the CRD the API server refused, or did not
	 * serve in time
	 */
	public void install(List<Crd> crds) {
		DynamicKubernetesApi api = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client);
		PatchOptions options = new PatchOptions();
		options.setFieldManager(this.fieldManager);
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
		long deadline = this.sleeper.read() + this.timeout.toNanos();
		String lastState = "not read yet";
		while (true) {
			KubernetesApiResponse<DynamicKubernetesObject> read = api.get(crd.name());
			if (!read.isSuccess()) {
				lastState = "read answered " + read.getHttpStatusCode();
			}
			else if (!isEstablished(read.getObject().getRaw().get("status"))) {
				lastState = "status " + read.getObject().getRaw().get("status");
			}
			else {
				// established is not yet served: the resource's handler may lag behind by
				// a moment
				ListOptions one = new ListOptions();
				one.setLimit(1);
				int code = resources.list(one).getHttpStatusCode();
				if (code == 200) {
					return;
				}
				lastState = "established, but listing " + crd.plural() + " answered " + code;
			}
			if (this.sleeper.read() - deadline >= 0) {
				throw new IllegalStateException("The CRD " + crd.name() + " from " + crd.source()
						+ " was not served within " + this.timeout + "; last seen: " + lastState);
			}
			try {
				this.sleeper.sleep(POLL_NANOS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for the CRD " + crd.name(), ex);
			}
		}
	}

	private static boolean isEstablished(@Nullable JsonElement status) {
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
