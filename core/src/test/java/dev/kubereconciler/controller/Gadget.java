package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import io.kubernetes.client.util.generic.options.PatchOptions;

import dev.kubereconciler.model.ResourceCoordinates;

import static org.awaitility.Awaitility.await;

/**
 * A custom resource for tests, with a {@code /status} subresource, so that
 * {@code metadata.generation} moves on spec changes only: a spec with a color, and a
 * status with the color seen, a counter and conditions (and any other field).
 */
@ResourceCoordinates(group = Gadget.GROUP, version = Gadget.VERSION, kind = "Gadget", plural = Gadget.PLURAL)
public class Gadget extends TestResource<V1ObjectMeta> implements KubernetesObject {

	static final String GROUP = "test.kubereconciler.dev";

	static final String VERSION = "v1";

	static final String PLURAL = "gadgets";

	static final String CRD = """
			{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
			 "metadata":{"name":"gadgets.test.kubereconciler.dev"},
			 "spec":{"group":"test.kubereconciler.dev","scope":"Namespaced",
			  "names":{"kind":"Gadget","listKind":"GadgetList","plural":"gadgets","singular":"gadget"},
			  "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
			   "schema":{"openAPIV3Schema":{"type":"object","properties":{
			    "spec":{"type":"object","properties":{"color":{"type":"string"}}},
			    "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}
			""";

	private Spec spec;

	private Status status;

	public Gadget() {
		super(GROUP + "/" + VERSION, "Gadget");
	}

	static void install(ApiClient client) throws ApiException {
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		DynamicKubernetesObject crd = Dynamics.newFromYaml(CRD);
		PatchOptions options = new PatchOptions();
		options.setFieldManager("kube-reconciler-tests");
		options.setForce(true);
		crds.patch("gadgets.test.kubereconciler.dev", V1Patch.PATCH_FORMAT_APPLY_YAML,
				new V1Patch(crd.getRaw().toString()), options)
			.throwsApiException();
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			var response = crds.get("gadgets.test.kubereconciler.dev");
			return response.isSuccess() && response.getObject().getRaw().toString().contains("\"Established\"");
		});
		// served once established; the first list may still race discovery
		var gadgets = new DynamicKubernetesApi(GROUP, VERSION, PLURAL, client);
		await().atMost(Duration.ofSeconds(30)).until(() -> gadgets.list("default").isSuccess());
	}

	static Gadget named(String namespace, String name, String color) {
		Gadget gadget = new Gadget();
		gadget.metadata = new V1ObjectMeta().namespace(namespace).name(name);
		gadget.spec = new Spec();
		gadget.spec.color = color;
		return gadget;
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

		Integer writes;

		List<V1Condition> conditions = new ArrayList<>();

		Status color(String color) {
			this.color = color;
			return this;
		}

		Status writes(Integer writes) {
			this.writes = writes;
			return this;
		}

		@Override
		public boolean equals(Object obj) {
			return obj instanceof Status other && Objects.equals(this.color, other.color)
					&& Objects.equals(this.writes, other.writes) && Objects.equals(this.conditions, other.conditions);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.color, this.writes, this.conditions);
		}

	}

}
