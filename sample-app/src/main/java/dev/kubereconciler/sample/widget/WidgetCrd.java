package dev.kubereconciler.sample.widget;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import io.kubernetes.client.util.generic.options.PatchOptions;

/**
 * Applies the Widget CustomResourceDefinition shipped in {@code k8s/widget-crd.yaml} and
 * waits until the API server serves it.
 *
 * <p>
 * The CRD travels as the YAML's own JSON, through server-side apply: client-java's
 * {@code V1JSONSchemaProps} model adds empty fields that API servers reject.
 */
public final class WidgetCrd {

	/** The classpath location of the CRD. */
	public static final String RESOURCE = "k8s/widget-crd.yaml";

	/** The CRD's name. */
	public static final String NAME = Widget.PLURAL + "." + Widget.GROUP;

	private static final String FIELD_MANAGER = "kube-reconciler-sample";

	private WidgetCrd() {
	}

	/**
	 * Apply the CRD and wait until it is established.
	 * @param client the client
	 * @param timeout how long to wait for the Established condition
	 * @throws ApiException if the API server refuses the CRD
	 * @throws IllegalStateException if the CRD is not established in time
	 */
	public static void install(ApiClient client, Duration timeout) throws ApiException {
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		DynamicKubernetesObject crd = Dynamics.newFromYaml(read());
		PatchOptions options = new PatchOptions();
		options.setFieldManager(FIELD_MANAGER);
		options.setForce(true);
		crds.patch(NAME, V1Patch.PATCH_FORMAT_APPLY_YAML, new V1Patch(crd.getRaw().toString()), options)
			.throwsApiException();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!isEstablished(crds.get(NAME))) {
			if (System.nanoTime() - deadline >= 0) {
				throw new IllegalStateException("The CRD " + NAME + " was not established within " + timeout);
			}
			try {
				// the API server establishes a new CRD within a few hundred milliseconds
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for the CRD " + NAME, ex);
			}
		}
	}

	/**
	 * Return the CRD as YAML.
	 * @return the YAML text
	 */
	public static String read() {
		try (InputStream in = WidgetCrd.class.getClassLoader().getResourceAsStream(RESOURCE)) {
			if (in == null) {
				throw new IllegalStateException("No " + RESOURCE + " on the classpath");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean isEstablished(KubernetesApiResponse<DynamicKubernetesObject> response) {
		if (!response.isSuccess()) {
			return false;
		}
		JsonElement status = response.getObject().getRaw().get("status");
		if (status == null || !status.isJsonObject()) {
			return false;
		}
		JsonElement conditions = status.getAsJsonObject().get("conditions");
		if (conditions == null || !conditions.isJsonArray()) {
			return false;
		}
		for (JsonElement element : (JsonArray) conditions) {
			JsonObject condition = element.getAsJsonObject();
			if ("Established".equals(condition.get("type").getAsString())
					&& "True".equals(condition.get("status").getAsString())) {
				return true;
			}
		}
		return false;
	}

}
