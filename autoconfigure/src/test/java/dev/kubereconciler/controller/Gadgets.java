package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;

import static org.awaitility.Awaitility.await;

/**
 * Installs the {@link Gadget} CRD on the test API server and writes gadgets.
 */
final class Gadgets {

	private static final String CRD = """
			{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			 "metadata": {"name": "gadgets.test.kubereconciler.dev"},
			 "spec": {"group": "test.kubereconciler.dev", "scope": "Namespaced",
			  "names": {"kind": "Gadget", "listKind": "GadgetList", "plural": "gadgets", "singular": "gadget"},
			  "versions": [{"name": "v1", "served": true, "storage": true, "subresources": {"status": {}},
			   "schema": {"openAPIV3Schema": {"type": "object", "properties": {
			    "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
			    "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}}
			""";

	private final ApiClient client;

	private final String namespace;

	Gadgets(ApiClient client, String namespace) {
		this.client = client;
		this.namespace = namespace;
	}

	static void install(ApiClient client) throws ApiException {
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		if (!crds.get("gadgets.test.kubereconciler.dev").isSuccess()) {
			DynamicKubernetesObject crd = Dynamics.newFromJson(CRD);
			var created = crds.create(crd);
			if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
				created.throwsApiException();
			}
		}
		DynamicKubernetesApi gadgets = new DynamicKubernetesApi(Gadget.GROUP, Gadget.VERSION, Gadget.PLURAL, client);
		// served once established; listing fails with 404 until then
		await().atMost(Duration.ofSeconds(30)).until(() -> gadgets.list().isSuccess());
	}

	Gadget create(String name, Map<String, Object> spec) throws ApiException {
		Gadget gadget = new Gadget().metadata(new V1ObjectMeta().name(name).namespace(this.namespace)).spec(spec);
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
