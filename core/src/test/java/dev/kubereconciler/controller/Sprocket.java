package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import io.kubernetes.client.util.generic.options.PatchOptions;

import dev.kubereconciler.model.ResourceCoordinates;

import static org.awaitility.Awaitility.await;

/**
 * A custom resource for tests whose CRD serves the {@code /status} subresource or not, as
 * the test installs it: a spec with a color and a status with the color seen.
 */
@ResourceCoordinates(group = Sprocket.GROUP, version = Sprocket.VERSION, kind = "Sprocket", plural = Sprocket.PLURAL)
public class Sprocket extends TestResource<V1ObjectMeta> implements KubernetesObject {

	static final String GROUP = "test.kubereconciler.dev";

	static final String VERSION = "v1";

	static final String PLURAL = "sprockets";

	static final String CRD_NAME = PLURAL + "." + GROUP;

	private static final String CRD = """
			{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
			 "metadata":{"name":"sprockets.test.kubereconciler.dev"},
			 "spec":{"group":"test.kubereconciler.dev","scope":"Namespaced",
			  "names":{"kind":"Sprocket","listKind":"SprocketList","plural":"sprockets","singular":"sprocket"},
			  "versions":[{"name":"v1","served":true,"storage":true,SUBRESOURCES
			   "schema":{"openAPIV3Schema":{"type":"object","properties":{
			    "spec":{"type":"object","properties":{"color":{"type":"string"}}},
			    "status":{"type":"object","properties":{"color":{"type":"string"}}}}}}}]}}
			""";

	private Spec spec;

	private Status status;

	public Sprocket() {
		super(GROUP + "/" + VERSION, "Sprocket");
	}

	/**
	 * Apply the CRD, with or without the status subresource, and wait until the API
	 * server's discovery says so.
	 */
	static void install(ApiClient client, boolean statusSubresource) throws ApiException {
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		String crd = CRD.replace("SUBRESOURCES", statusSubresource ? "\"subresources\":{\"status\":{}}," : "");
		PatchOptions options = new PatchOptions();
		options.setFieldManager("kube-reconciler-tests");
		options.setForce(true);
		crds.patch(CRD_NAME, V1Patch.PATCH_FORMAT_APPLY_YAML,
				new V1Patch(Dynamics.newFromYaml(crd).getRaw().toString()), options)
			.throwsApiException();
		await().atMost(Duration.ofSeconds(30)).until(() -> servesStatus(client) == statusSubresource);
		var sprockets = new DynamicKubernetesApi(GROUP, VERSION, PLURAL, client);
		await().atMost(Duration.ofSeconds(30)).until(() -> sprockets.list("default").isSuccess());
	}

	private static boolean servesStatus(ApiClient client) {
		try {
			return new CustomObjectsApi(client).getAPIResources(GROUP, VERSION)
				.execute()
				.getResources()
				.stream()
				.anyMatch((resource) -> resource.getName().equals(PLURAL + "/status"));
		}
		catch (ApiException ex) {
			return false;
		}
	}

	static Sprocket named(String namespace, String name, String color) {
		Sprocket sprocket = new Sprocket();
		sprocket.metadata = new V1ObjectMeta().namespace(namespace).name(name);
		sprocket.spec = new Spec();
		sprocket.spec.color = color;
		return sprocket;
	}

	public Spec getSpec() {
		return this.spec;
	}

	public Status getStatus() {
		return this.status;
	}

	public void setStatus(Status status) {
		this.status = status;
	}

	/**
	 * The desired state.
	 */
	public static class Spec {

		String color;

		public String getColor() {
			return this.color;
		}

	}

	/**
	 * The observed state.
	 */
	public static class Status {

		String color;

		public Status() {
		}

		Status(String color) {
			this.color = color;
		}

		public String getColor() {
			return this.color;
		}

		@Override
		public boolean equals(Object obj) {
			return obj instanceof Status other && Objects.equals(this.color, other.color);
		}

		@Override
		public int hashCode() {
			return Objects.hashCode(this.color);
		}

	}

}
