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
 * Installs the {@link Gizmo} CRD on the test API server and writes gizmos.
 */
final class Gizmos {

	private static final String CRD = """
			{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			 "metadata": {"name": "gizmos.test.kubereconciler.dev"},
			 "spec": {"group": "test.kubereconciler.dev", "scope": "Namespaced",
			  "names": {"kind": "Gizmo", "listKind": "GizmoList", "plural": "gizmos", "singular": "gizmo"},
			  "versions": [{"name": "v1", "served": true, "storage": true, "subresources": {"status": {}},
			   "schema": {"openAPIV3Schema": {"type": "object", "properties": {
			    "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
			    "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}}
			""";

	private final ApiClient client;

	private final String namespace;

	Gizmos(ApiClient client, String namespace) {
		this.client = client;
		this.namespace = namespace;
	}

	static void install(ApiClient client) throws ApiException {
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		if (!crds.get("gizmos.test.kubereconciler.dev").isSuccess()) {
			DynamicKubernetesObject crd = Dynamics.newFromJson(CRD);
			var created = crds.create(crd);
			if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
				created.throwsApiException();
			}
		}
		DynamicKubernetesApi gizmos = new DynamicKubernetesApi(Gizmo.GROUP, Gizmo.VERSION, Gizmo.PLURAL, client);
		// served once established; listing fails with 404 until then
		await().atMost(Duration.ofSeconds(30)).until(() -> gizmos.list().isSuccess());
	}

	Gizmo create(String name, Map<String, Object> spec) throws ApiException {
		Gizmo gizmo = new Gizmo().metadata(new V1ObjectMeta().name(name).namespace(this.namespace)).spec(spec);
		api().createNamespacedCustomObject(Gizmo.GROUP, Gizmo.VERSION, this.namespace, Gizmo.PLURAL, gizmo).execute();
		return gizmo;
	}

	void patchSpec(String name, String specJson) throws ApiException {
		PatchUtils.patch(Object.class,
				() -> api()
					.patchNamespacedCustomObject(Gizmo.GROUP, Gizmo.VERSION, this.namespace, Gizmo.PLURAL, name,
							new V1Patch("{\"spec\":" + specJson + "}"))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

	void patchStatus(String name, String statusJson) throws ApiException {
		PatchUtils.patch(Object.class,
				() -> api()
					.patchNamespacedCustomObjectStatus(Gizmo.GROUP, Gizmo.VERSION, this.namespace, Gizmo.PLURAL, name,
							new V1Patch("{\"status\":" + statusJson + "}"))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

	private CustomObjectsApi api() {
		return new CustomObjectsApi(this.client);
	}

}
