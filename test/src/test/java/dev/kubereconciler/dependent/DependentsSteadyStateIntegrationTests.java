package dev.kubereconciler.dependent;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.PatchUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.rbac.ControllerRbac;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.test.rbac.ApiRequest;
import dev.kubereconciler.test.rbac.ApiRequestRecorder;
import dev.kubereconciler.test.rbac.RbacAuthorizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A steady state sends no write, against the real API server: a desired state with zero
 * values that the API omits when it stores the object, and keyed lists to which someone
 * else added elements, are found as wanted on every resync.
 */
@KubernetesTest(crds = "dev/kubereconciler/dependent/stacks.yaml")
class DependentsSteadyStateIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private ApiRequestRecorder.Recorded managerClient;

	private ControllerManager manager;

	private final AtomicInteger reconciles = new AtomicInteger();

	private final List<String> errors = new CopyOnWriteArrayList<>();

	@BeforeEach
	void recordManagerRequests() {
		this.managerClient = ApiRequestRecorder.record(this.server.apiClient());
	}

	@AfterEach
	void stopAndCheckTheRequestsAgainstTheDerivedRbac() {
		if (this.manager != null) {
			this.manager.stop();
			RbacAuthorizer.assertAllowed(ControllerRbac
				.derive(this.manager.controllers().values().stream().map(Controller::definition).toList())
				.build(), this.managerClient.recorder().requests());
		}
		assertThat(this.errors).isEmpty();
	}

	@Test
	void zeroValuesTheApiOmitsAndOthersElementsInKeyedListsSendNoApplyOnResync() throws Exception {
		String ns = this.namespace.name();
		this.manager = ControllerManager.builder(this.managerClient.client()).listener(new ControllerListener() {

			@Override
			public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
					Throwable error) {
				DependentsSteadyStateIntegrationTests.this.reconciles.incrementAndGet();
				if (error != null) {
					DependentsSteadyStateIntegrationTests.this.errors.add(controller + ": " + error);
				}
			}

		})
			.controller(ControllerDefinition.builder(Stack.class)
				.named("steady-stacks")
				.namespaces(ns)
				.resyncPeriod(Duration.ofSeconds(1))
				.dependent("deployment", V1Deployment.class, DependentsSteadyStateIntegrationTests::desiredDeployment)
				.reconcile((stack, context) -> Result.done()))
			.build();
		this.manager.start();
		Stack stack = new Stack();
		stack.getMetadata().name("steady").namespace(ns);
		stack.setSpec(new Stack.Spec("nginx:1.27", "hello", 0, false));
		CustomResourceList.api(Stack.class, this.client).create(stack).throwsApiException();
		AppsV1Api apps = new AppsV1Api(this.client);
		await().atMost(TIMEOUT).until(() -> exists(apps, ns));
		int created = this.reconciles.get();
		await().atMost(TIMEOUT).until(() -> this.reconciles.get() >= created + 2);
		// someone else adds an owner reference and an environment variable of their own
		V1ConfigMap anchor = new CoreV1Api(this.client)
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("anchor")))
			.execute();
		String patch = """
				{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"anchor","uid":"%s"}]},
				"spec":{"template":{"spec":{"containers":[{"name":"app","env":[{"name":"THEIRS","value":"x"}]}]}}}}"""
			.formatted(anchor.getMetadata().getUid());
		PatchUtils.patch(V1Deployment.class,
				() -> apps.patchNamespacedDeployment("steady", ns, new V1Patch(patch))
					.fieldManager("someone-else")
					.buildCall(null),
				V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, this.client);
		V1Deployment patched = apps.readNamespacedDeployment("steady", ns).execute();
		assertThat(patched.getMetadata().getOwnerReferences()).hasSize(2);
		assertThat(patched.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()).hasSize(2);
		assertThat(patched.getSpec().getMinReadySeconds()).isNull();
		assertThat(patched.getSpec().getPaused()).isNull();
		int requestsBefore = this.managerClient.recorder().allRequests().size();
		int reconcilesBefore = this.reconciles.get();
		// the patch's event and then every resync reconcile the Stack
		await().atMost(TIMEOUT).until(() -> this.reconciles.get() >= reconcilesBefore + 5);
		List<ApiRequest> steady = this.managerClient.recorder()
			.allRequests()
			.subList(requestsBefore, this.managerClient.recorder().allRequests().size());
		assertThat(steady).filteredOn((request) -> !List.of("get", "list", "watch").contains(request.verb())).isEmpty();
		assertThat(apps.readNamespacedDeployment("steady", ns).execute().getMetadata().getResourceVersion())
			.isEqualTo(patched.getMetadata().getResourceVersion());
	}

	private static boolean exists(AppsV1Api apps, String ns) throws ApiException {
		try {
			return apps.readNamespacedDeployment("steady", ns).execute() != null;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw ex;
		}
	}

	static V1Deployment desiredDeployment(Stack stack, dev.kubereconciler.reconcile.ReconcileContext<Stack> context) {
		String name = stack.getMetadata().getName();
		// zero values the API omits from what it stores
		return new V1Deployment().metadata(new V1ObjectMeta().name(name))
			.spec(new V1DeploymentSpec().replicas(1)
				.minReadySeconds(0)
				.paused(false)
				.selector(new V1LabelSelector().matchLabels(Map.of("app", name)))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", name)))
					.spec(new V1PodSpec().containers(List.of(new V1Container().name("app")
						.image(stack.getSpec().image())
						.env(List.of(new V1EnvVar().name("GREETING").value(stack.getSpec().greeting()))))))));
	}

}
