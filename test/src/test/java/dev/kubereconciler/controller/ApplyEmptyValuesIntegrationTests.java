package dev.kubereconciler.controller;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EmptyDirVolumeSource;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1NetworkPolicySpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetSpec;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import okhttp3.Request;
import okhttp3.Response;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Server-side apply keeps the empty objects a user set, which carry meaning, and drops
 * only the empty maps and lists that client-java's models carry by default, against the
 * real test API server.
 */
@KubernetesTest
class ApplyEmptyValuesIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@RegisterExtension
	final StartedManagers managers = new StartedManagers();

	ApiClient client;

	TestNamespace namespace;

	@Test
	void emptyObjectsTheUserSetAreApplied() throws ApiException, IOException {
		// the test server serves neither policy/v1 nor networking.k8s.io/v1, and stores
		// Pods as sent, without defaulting a volume's type. Custom resources stand in:
		// NetworkPolicy at its own path; a PodDisruptionBudget, with client-java's model
		// classes, in a test group, since a custom resource's group needs a dot
		StandInResource.install(this.client, Budget.GROUP, "v1", "PodDisruptionBudget", "poddisruptionbudgets");
		StandInResource.install(this.client, "networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies");
		List<String> applied = new CopyOnWriteArrayList<>();
		List<String> failures = new CopyOnWriteArrayList<>();
		this.managers.start(ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("empty-values")
				.namespaces(this.namespace.name())
				.labelSelector("apply-test=empty")
				.reconcile((configMap, context) -> {
					String namespace = configMap.getMetadata().getNamespace();
					apply(context, pod(namespace), applied, failures);
					apply(context, disruptionBudget(namespace), applied, failures);
					apply(context, networkPolicy(namespace), applied, failures);
					return Result.done();
				})));
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap()
						.metadata(new V1ObjectMeta().name("trigger").labels(Map.of("apply-test", "empty"))))
			.execute();
		await().atMost(TIMEOUT).until(() -> applied.size() + failures.size() == 3);
		assertThat(failures).isEmpty();
		JsonObject pod = rawJson("/api/v1/namespaces/" + this.namespace.name() + "/pods/scratch");
		JsonObject budget = rawJson(
				"/apis/" + Budget.GROUP + "/v1/namespaces/" + this.namespace.name() + "/poddisruptionbudgets/all-pods");
		JsonObject policy = rawJson(
				"/apis/networking.k8s.io/v1/namespaces/" + this.namespace.name() + "/networkpolicies/deny-all");
		JsonObject container = pod.getAsJsonObject("spec").getAsJsonArray("containers").get(0).getAsJsonObject();
		SoftAssertions.assertSoftly((softly) -> {
			// emptyDir: {} is the volume's type: without it an upstream server refuses
			// the volume with 422
			softly.assertThat(pod.getAsJsonObject("spec").getAsJsonArray("volumes").get(0).getAsJsonObject().keySet())
				.as("the pod's volume")
				.containsExactlyInAnyOrder("name", "emptyDir");
			// selector: {} selects every pod; no selector selects none
			softly.assertThat(budget.getAsJsonObject("spec").keySet())
				.as("the budget's spec")
				.containsExactlyInAnyOrder("maxUnavailable", "selector");
			// podSelector: {} applies the policy to every pod of the namespace
			softly.assertThat(policy.getAsJsonObject("spec").keySet())
				.as("the policy's spec")
				.containsExactlyInAnyOrder("podSelector", "policyTypes");
			// the empty lists client-java's models start with are not sent (the server
			// itself writes resources: {}, a struct in Go)
			softly.assertThat(container.keySet())
				.as("the container")
				.contains("name", "image", "volumeMounts")
				.doesNotContainAnyElementsOf(List.of("args", "command", "env", "envFrom", "ports", "volumeDevices"));
		});
	}

	private JsonObject rawJson(String path) throws IOException {
		Request request = new Request.Builder().url(this.client.getBasePath() + path).build();
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			return JsonParser.parseString(response.body().string()).getAsJsonObject();
		}
	}

	private static void apply(ReconcileContext<V1ConfigMap> context, KubernetesObject object, List<String> applied,
			List<String> failures) {
		try {
			context.apply(object);
			applied.add(object.getMetadata().getName());
		}
		catch (Exception ex) {
			String message = (ex instanceof ApiException api) ? api.getCode() + " " + api.getResponseBody()
					: ex.toString();
			failures.add(object.getMetadata().getName() + ": " + message);
		}
	}

	private static V1Pod pod(String namespace) {
		return new V1Pod().metadata(new V1ObjectMeta().name("scratch").namespace(namespace))
			.spec(new V1PodSpec()
				.addContainersItem(new V1Container().name("main")
					.image("registry.k8s.io/pause:3.10")
					.addVolumeMountsItem(new V1VolumeMount().name("scratch").mountPath("/scratch")))
				.addVolumesItem(new V1Volume().name("scratch").emptyDir(new V1EmptyDirVolumeSource())));
	}

	private static Budget disruptionBudget(String namespace) {
		Budget budget = new Budget();
		budget.metadata = new V1ObjectMeta().name("all-pods").namespace(namespace);
		budget.setSpec(
				new V1PodDisruptionBudgetSpec().maxUnavailable(new IntOrString(1)).selector(new V1LabelSelector()));
		return budget;
	}

	private static V1NetworkPolicy networkPolicy(String namespace) {
		return new V1NetworkPolicy().metadata(new V1ObjectMeta().name("deny-all").namespace(namespace))
			.spec(new V1NetworkPolicySpec().podSelector(new V1LabelSelector()).addPolicyTypesItem("Ingress"));
	}

	/**
	 * A PodDisruptionBudget in a test group, with client-java's spec model, served by a
	 * custom resource.
	 */
	@ResourceCoordinates(group = Budget.GROUP, version = "v1", kind = "PodDisruptionBudget",
			plural = "poddisruptionbudgets")
	public static class Budget extends TestResource<V1ObjectMeta> implements KubernetesObject {

		static final String GROUP = "policy.test.kubereconciler.dev";

		private V1PodDisruptionBudgetSpec spec;

		Budget() {
			super(GROUP + "/v1", "PodDisruptionBudget");
		}

		public V1PodDisruptionBudgetSpec getSpec() {
			return this.spec;
		}

		public void setSpec(V1PodDisruptionBudgetSpec spec) {
			this.spec = spec;
		}

	}

	/**
	 * The list of {@link Budget}s.
	 */
	public static class BudgetList extends TestResource<V1ListMeta> implements KubernetesListObject {

		private List<Budget> items = new ArrayList<>();

		BudgetList() {
			super(Budget.GROUP + "/v1", "PodDisruptionBudgetList");
		}

		@Override
		public List<Budget> getItems() {
			return this.items;
		}

	}

}
