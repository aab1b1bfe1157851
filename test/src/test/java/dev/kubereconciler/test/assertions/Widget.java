package dev.kubereconciler.test.assertions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import io.kubernetes.client.util.generic.options.PatchOptions;

import dev.kubereconciler.model.ResourceCoordinates;

import static org.awaitility.Awaitility.await;

/**
 * A custom resource for the assertions' tests, with a {@code /status} subresource: a spec
 * with a number of replicas, and a status with the replicas seen and conditions.
 */
@ResourceCoordinates(group = Widget.GROUP, version = "v1", kind = "Widget", plural = "widgets")
public class Widget implements KubernetesObject {

	static final String GROUP = "assertions.kubereconciler.dev";

	private static final String CRD = """
			{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
			 "metadata":{"name":"widgets.assertions.kubereconciler.dev"},
			 "spec":{"group":"assertions.kubereconciler.dev","scope":"Namespaced",
			  "names":{"kind":"Widget","listKind":"WidgetList","plural":"widgets","singular":"widget"},
			  "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
			   "schema":{"openAPIV3Schema":{"type":"object","properties":{
			    "spec":{"type":"object","properties":{"replicas":{"type":"integer"}}},
			    "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}
			""";

	private String apiVersion = GROUP + "/v1";

	private String kind = "Widget";

	private V1ObjectMeta metadata;

	private Spec spec = new Spec();

	private Status status;

	static void install(ApiClient client) throws ApiException {
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		PatchOptions options = new PatchOptions();
		options.setFieldManager("kube-reconciler-tests");
		options.setForce(true);
		crds.patch("widgets." + GROUP, V1Patch.PATCH_FORMAT_APPLY_YAML,
				new V1Patch(Dynamics.newFromYaml(CRD).getRaw().toString()), options)
			.throwsApiException();
		DynamicKubernetesApi widgets = new DynamicKubernetesApi(GROUP, "v1", "widgets", client);
		await().atMost(Duration.ofSeconds(30)).until(() -> widgets.list("default").isSuccess());
	}

	static GenericKubernetesApi<Widget, WidgetList> api(ApiClient client) {
		return new GenericKubernetesApi<>(Widget.class, WidgetList.class, GROUP, "v1", "widgets", client);
	}

	static Widget named(String namespace, String name, int replicas, Map<String, String> labels) {
		Widget widget = new Widget();
		widget.metadata = new V1ObjectMeta().namespace(namespace).name(name).labels(labels);
		widget.spec.replicas = replicas;
		return widget;
	}

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	public void setApiVersion(String apiVersion) {
		this.apiVersion = apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	public void setKind(String kind) {
		this.kind = kind;
	}

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
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

		int replicas;

		public int getReplicas() {
			return this.replicas;
		}

	}

	/**
	 * The observed state.
	 */
	public static class Status {

		Integer replicas;

		List<V1Condition> conditions = new ArrayList<>();

		public List<V1Condition> getConditions() {
			return this.conditions;
		}

	}

}
