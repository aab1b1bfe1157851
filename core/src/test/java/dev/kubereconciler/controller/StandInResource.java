package dev.kubereconciler.controller;

import java.time.Duration;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import io.kubernetes.client.util.generic.options.PatchOptions;

import static org.awaitility.Awaitility.await;

/**
 * A custom resource definition that stands in for a built-in type the test API server
 * does not serve, at the built-in type's own group, version and path: the server stores
 * whatever is sent, so a test reads back exactly what a client wrote.
 */
final class StandInResource {

	private StandInResource() {
	}

	/**
	 * Define a namespaced type that keeps every field it is sent, and wait until it is
	 * served.
	 * @param client the client
	 * @param group the API group, such as {@code policy}
	 * @param version the version, such as {@code v1}
	 * @param kind the kind
	 * @param plural the resource name
	 * @throws ApiException if the server refuses the definition
	 */
	static void install(ApiClient client, String group, String version, String kind, String plural)
			throws ApiException {
		String name = plural + "." + group;
		String crd = """
				{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
				 "metadata":{"name":"%s",
				  "annotations":{"api-approved.kubernetes.io":"https://github.com/kubernetes/enhancements/pull/1111"}},
				 "spec":{"group":"%s","scope":"Namespaced",
				  "names":{"kind":"%s","listKind":"%sList","plural":"%s"},
				  "versions":[{"name":"%s","served":true,"storage":true,
				   "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}
				""".formatted(name, group, kind, kind, plural, version);
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		DynamicKubernetesObject definition = Dynamics.newFromYaml(crd);
		PatchOptions options = new PatchOptions();
		options.setFieldManager("kube-reconciler-tests");
		options.setForce(true);
		crds.patch(name, V1Patch.PATCH_FORMAT_APPLY_YAML, new V1Patch(definition.getRaw().toString()), options)
			.throwsApiException();
		DynamicKubernetesApi objects = new DynamicKubernetesApi(group, version, plural, client);
		await().atMost(Duration.ofSeconds(30)).until(() -> objects.list("default").isSuccess());
	}

}
