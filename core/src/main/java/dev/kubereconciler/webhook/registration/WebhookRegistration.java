package dev.kubereconciler.webhook.registration;

import java.util.List;
import java.util.Map;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.DeleteOptions;
import io.kubernetes.client.util.generic.options.PatchOptions;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.webhook.Webhooks;
import dev.kubereconciler.webhook.conversion.ConvertedResource;

/**
 * Points the API server at the application's own webhook server, for development and
 * tests: applies its {@link WebhookConfigurations} and sets the conversion webhook of the
 * CRDs it converts, with the URL and CA of the running server; in a cluster, the
 * generated manifests and cert-manager do this instead.
 *
 * <p>
 * The configurations are applied by server-side apply under a field manager of their own,
 * and deleted by {@link #unregister}, so that an application that stops leaves no webhook
 * behind that nothing answers. A CRD's conversion stays: without it, the API server could
 * not read the versions other than the stored one at all.
 */
public final class WebhookRegistration {

	/** The field manager of the applied configurations and patched CRDs. */
	public static final String FIELD_MANAGER = "kube-reconciler-webhooks";

	private final ApiClient client;

	/**
	 * Create a registration.
	 * @param client the client, allowed to write webhook configurations and patch CRDs
	 */
	public WebhookRegistration(ApiClient client) {
		this.client = client;
	}

	/**
	 * Apply the webhook configurations and set the CRDs' conversion.
	 * @param webhooks the webhooks
	 * @param configurations how to configure them
	 * @throws IllegalStateException naming what the API server refused
	 */
	public void register(Webhooks webhooks, WebhookConfigurations configurations) {
		PatchOptions options = new PatchOptions();
		options.setFieldManager(FIELD_MANAGER);
		options.setForce(true);
		apply(validatingApi(), configurations.name(), configurations.validating(webhooks), options);
		apply(mutatingApi(), configurations.name(), configurations.mutating(webhooks), options);
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client);
		for (ConvertedResource resource : webhooks.convertedResources()) {
			Map<String, Object> conversion = configurations.client().withPath(Webhooks.CONVERSION_PATH).conversion();
			JsonObject spec = new JsonObject();
			spec.add("conversion", JSON.getGson().toJsonTree(conversion));
			JsonObject patch = new JsonObject();
			patch.add("spec", spec);
			PatchOptions merge = new PatchOptions();
			merge.setFieldManager(FIELD_MANAGER);
			KubernetesApiResponse<DynamicKubernetesObject> response = crds.patch(resource.crdName(),
					V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch(patch.toString()), merge);
			if (response.getHttpStatusCode() == 404) {
				throw new IllegalStateException("The CRD " + resource.crdName() + " is not installed, so its "
						+ "conversion webhook cannot be set: install it first, for example with "
						+ "kube-reconciler.crds.apply=true");
			}
			check(response, "set the conversion webhook of the CRD " + resource.crdName());
		}
	}

	/**
	 * Delete the webhook configurations.
	 * @param configurations the configurations applied
	 */
	public void unregister(WebhookConfigurations configurations) {
		for (DynamicKubernetesApi api : List.of(validatingApi(), mutatingApi())) {
			KubernetesApiResponse<DynamicKubernetesObject> response = api.delete(configurations.name(),
					new DeleteOptions());
			if (response.getHttpStatusCode() != 404) {
				check(response, "delete the webhook configuration " + configurations.name());
			}
		}
	}

	private DynamicKubernetesApi validatingApi() {
		return new DynamicKubernetesApi("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations",
				this.client);
	}

	private DynamicKubernetesApi mutatingApi() {
		return new DynamicKubernetesApi("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations",
				this.client);
	}

	private static void apply(DynamicKubernetesApi api, String name, @Nullable Object configuration,
			PatchOptions options) {
		if (configuration == null) {
			// none of that kind: one left by an earlier run must not call a path no
			// longer served
			KubernetesApiResponse<DynamicKubernetesObject> response = api.delete(name, new DeleteOptions());
			if (response.getHttpStatusCode() != 404) {
				check(response, "delete the webhook configuration " + name);
			}
			return;
		}
		JsonObject json = JSON.getGson().toJsonTree(configuration).getAsJsonObject();
		// client-java's model writes an empty list, which an apply must not carry at all
		json.getAsJsonObject("metadata").remove("managedFields");
		check(api.patch(name, V1Patch.PATCH_FORMAT_APPLY_YAML, new V1Patch(json.toString()), options),
				"apply the webhook configuration " + name);
	}

	private static void check(KubernetesApiResponse<DynamicKubernetesObject> response, String what) {
		if (!response.isSuccess()) {
			throw new IllegalStateException("The API server refused to " + what + ": " + response.getHttpStatusCode()
					+ " " + ((response.getStatus() != null) ? response.getStatus().getMessage() : ""));
		}
	}

}
