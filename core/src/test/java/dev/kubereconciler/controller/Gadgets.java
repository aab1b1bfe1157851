package dev.kubereconciler.controller;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;

/**
 * Writes the {@link Gadget gadgets} of one namespace, the spec and the status apart, with
 * merge patches.
 */
final class Gadgets {

	private final ApiClient client;

	private final String namespace;

	Gadgets(ApiClient client, String namespace) {
		this.client = client;
		this.namespace = namespace;
	}

	Gadget create(String name, String color) throws ApiException {
		Gadget gadget = Gadget.named(this.namespace, name, color);
		api().createNamespacedCustomObject(Gadget.GROUP, Gadget.VERSION, this.namespace, Gadget.PLURAL, gadget)
			.execute();
		return gadget;
	}

	void patchSpec(String name, String specJson) throws ApiException {
		PatchUtils.patch(Object.class,
				() -> api()
					.patchNamespacedCustomObject(Gadget.GROUP, Gadget.VERSION, this.namespace, Gadget.PLURAL, name,
							new V1Patch("{\"spec\":" + specJson + "}"))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

	void patchStatus(String name, String statusJson) throws ApiException {
		PatchUtils.patch(Object.class,
				() -> api()
					.patchNamespacedCustomObjectStatus(Gadget.GROUP, Gadget.VERSION, this.namespace, Gadget.PLURAL,
							name, new V1Patch("{\"status\":" + statusJson + "}"))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

	private CustomObjectsApi api() {
		return new CustomObjectsApi(this.client);
	}

}
