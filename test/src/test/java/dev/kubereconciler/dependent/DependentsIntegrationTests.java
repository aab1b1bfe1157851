package dev.kubereconciler.dependent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapEnvSource;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1EnvFromSource;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretEnvSource;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

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
 * Dependents against the real API server: a Stack owns a ConfigMap, a Secret, a
 * Deployment that depends on both, a Service that depends on the Deployment and a varying
 * number of worker ConfigMaps. Nothing runs pods, so the test writes the Deployment's
 * status itself. Every request the manager sends must be allowed by the derived RBAC.
 */
@KubernetesTest(crds = "dev/kubereconciler/dependent/stacks.yaml")
class DependentsIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private ApiRequestRecorder.Recorded managerClient;

	private ControllerManager manager;

	private final List<String> errors = new CopyOnWriteArrayList<>();

	private final List<String> applies = new CopyOnWriteArrayList<>();

	private final List<String> prunes = new CopyOnWriteArrayList<>();

	private final AtomicInteger reconciles = new AtomicInteger();

	private final List<Boolean> readySeenByReconcile = new CopyOnWriteArrayList<>();

	// each test's controller selects its own stacks, not those the tests before it left
	private String testLabel;

	@BeforeAll
	static void runsAsAnApplicationsJvmDoes() {
		// pruning must not rest on a client setting that no application has: without it,
		// client-java drops managedFields from every object it decodes
		assertThat(System.getProperty("kubernetes.client.includeManagedFields")).isNull();
	}

	@BeforeEach
	void recordManagerRequests(TestInfo test) {
		this.managerClient = ApiRequestRecorder.record(this.server.apiClient());
		this.testLabel = "t" + Integer.toHexString(test.getDisplayName().hashCode());
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
	void aChainIsAppliedInOrderWaitsForTheDeploymentTracksReadyAndThenWritesNothing() throws Exception {
		start(Duration.ofSeconds(1));
		Stack stack = createStack("shop", 0, true);
		String ns = this.namespace.name();
		await().atMost(TIMEOUT).until(() -> deployment("shop") != null);
		// the Deployment waits for nobody now, but the Service waits for it
		await().atMost(TIMEOUT).until(() -> readyCondition("shop") != null);
		assertThat(readyCondition("shop").getStatus()).isEqualTo("False");
		assertThat(readyCondition("shop").getMessage())
			.isEqualTo("deployment: Deployment " + ns + "/shop: its rollout is not observed yet");
		assertThat(service("shop")).isNull();
		// applied in DAG order: ConfigMap, Secret, then the Deployment
		assertThat(firstWrites()).containsExactly("configmaps/shop", "secrets/shop", "deployments/shop");
		for (Object owned : List.of(configMap("shop"), secret("shop"), deployment("shop"))) {
			V1ObjectMeta metadata = ((io.kubernetes.client.common.KubernetesObject) owned).getMetadata();
			assertThat(metadata.getOwnerReferences()).singleElement()
				.satisfies((reference) -> assertThat(reference.getUid()).isEqualTo(stack.getMetadata().getUid()));
			assertThat(metadata.getLabels()).containsKey("applyset.kubernetes.io/part-of")
				.containsKey("dependents.kubereconciler.dev/name");
		}
		markAvailable("shop");
		await().atMost(TIMEOUT).until(() -> service("shop") != null);
		await().atMost(TIMEOUT)
			.until(() -> readyCondition("shop") != null && "True".equals(readyCondition("shop").getStatus()));
		assertThat(readyCondition("shop").getMessage()).isEqualTo("All 5 dependents are ready");
		assertThat(readyCondition("shop").getReason()).isEqualTo("DependentsReady");
		await().atMost(TIMEOUT).until(() -> this.readySeenByReconcile.contains(true));
		// steady state: reconciles go on with every resync, and not one write is sent in
		// ten of them (a second apart; waiting out a fixed 30 s proved no more)
		int before = this.reconciles.get();
		int requestsBefore = this.managerClient.recorder().allRequests().size();
		await().atMost(Duration.ofSeconds(31)).until(() -> this.reconciles.get() - before >= 10);
		List<ApiRequest> steady = this.managerClient.recorder()
			.allRequests()
			.subList(requestsBefore, this.managerClient.recorder().allRequests().size());
		assertThat(steady).filteredOn((request) -> !List.of("get", "list", "watch").contains(request.verb())).isEmpty();
	}

	@Test
	void aDependentNotReadyPastItsTimeoutSaysSoAndIsStillWaitedFor() throws Exception {
		this.manager = ControllerManager.builder(this.managerClient.client())
			.listener(new Recorder())
			.controller(ControllerDefinition.builder(Stack.class)
				.named("stacks")
				.namespaces(this.namespace.name())
				.labelSelector("test=" + this.testLabel)
				.dependent(StackDependents.config())
				.dependent(StackDependents.secret())
				.dependent("deployment", V1Deployment.class, StackDependents::desiredDeployment,
						(options) -> options.dependsOn("config", "secret")
							.readyWhen(ReadyPostcondition.deploymentAvailable())
							.readyTimeout(Duration.ofMillis(1)))
				.readyCondition(true)
				.reconcile((stack, context) -> Result.done()))
			.build();
		this.manager.start();
		createStack("slow", 0, false);
		await().atMost(TIMEOUT)
			.until(() -> readyCondition("slow") != null && readyCondition("slow").getMessage().endsWith("PT0.001S"));
		assertThat(readyCondition("slow").getMessage()).isEqualTo("deployment: Deployment " + this.namespace.name()
				+ "/slow: its rollout is not observed yet, not ready after PT0.001S");
		markAvailable("slow");
		await().atMost(TIMEOUT)
			.until(() -> "True".equals(readyCondition("slow").getStatus())
					&& "All 3 dependents are ready".equals(readyCondition("slow").getMessage()));
	}

	@Test
	void driftInAManagedFieldIsPutBackAndAnUnmanagedFieldIsLeftAlone() throws Exception {
		start(Duration.ZERO);
		createStack("drift", 0, false);
		await().atMost(TIMEOUT).until(() -> configMap("drift") != null);
		V1ConfigMap changed = configMap("drift");
		changed.getData().put("greeting", "tampered");
		changed.getData().put("note", "someone else's");
		new CoreV1Api(this.client).replaceNamespacedConfigMap("drift", this.namespace.name(), changed)
			.fieldManager("someone-else")
			.execute();
		await().atMost(TIMEOUT).until(() -> "hello".equals(configMap("drift").getData().get("greeting")));
		assertThat(configMap("drift").getData()).containsEntry("note", "someone else's");
		assertThat(this.applies).contains("config:changed:drift");
	}

	@Test
	void aShrinkingBulkDeletesExactlyWhatItNoLongerWantsAndNeverALookAlike() throws Exception {
		start(Duration.ZERO);
		Stack stack = createStack("bulk", 5, false);
		String ns = this.namespace.name();
		await().atMost(TIMEOUT).until(() -> workers("bulk").size() == 5);
		// someone else's objects with the same labels: one unowned, one even naming the
		// Stack as its owner
		Map<String, String> labels = configMap("bulk-worker-0").getMetadata().getLabels();
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespacedConfigMap(ns,
				new V1ConfigMap().metadata(new V1ObjectMeta().name("look-alike").labels(labels)))
			.execute();
		core.createNamespacedConfigMap(ns,
				new V1ConfigMap().metadata(new V1ObjectMeta().name("owned-look-alike")
					.labels(labels)
					.ownerReferences(List.of(new V1OwnerReference().apiVersion("deps.test.kubereconciler.dev/v1")
						.kind("Stack")
						.name("bulk")
						.uid(stack.getMetadata().getUid())))))
			.execute();
		await().atMost(TIMEOUT).until(() -> workers("bulk").size() == 7);
		int requestsBefore = this.managerClient.recorder().allRequests().size();
		patchSpec("bulk", "{\"spec\":{\"workers\":2}}");
		await().atMost(TIMEOUT).until(() -> workers("bulk").size() == 4);
		await().pollDelay(Duration.ofSeconds(1)).atMost(TIMEOUT).until(() -> workers("bulk").size() == 4);
		assertThat(workers("bulk")).containsExactlyInAnyOrder("bulk-worker-0", "bulk-worker-1", "look-alike",
				"owned-look-alike");
		List<ApiRequest> deletes = this.managerClient.recorder()
			.allRequests()
			.subList(requestsBefore, this.managerClient.recorder().allRequests().size())
			.stream()
			.filter((request) -> request.verb().equals("delete"))
			.toList();
		assertThat(deletes).extracting(ApiRequest::name)
			.containsExactlyInAnyOrder("bulk-worker-2", "bulk-worker-3", "bulk-worker-4");
		assertThat(this.prunes).containsExactly("workers", "workers", "workers");
	}

	@Test
	void aPreconditionTurningFalseDeletesTheDependent() throws Exception {
		start(Duration.ZERO);
		createStack("toggle", 0, true);
		await().atMost(TIMEOUT).until(() -> deployment("toggle") != null);
		markAvailable("toggle");
		await().atMost(TIMEOUT).until(() -> service("toggle") != null);
		patchSpec("toggle", "{\"spec\":{\"exposed\":false}}");
		await().atMost(TIMEOUT).until(() -> service("toggle") == null);
		assertThat(deployment("toggle")).isNotNull();
		assertThat(this.prunes).containsExactly("service");
		await().atMost(TIMEOUT)
			.until(() -> readyCondition("toggle") != null && "True".equals(readyCondition("toggle").getStatus())
					&& "All 4 dependents are ready".equals(readyCondition("toggle").getMessage()));
	}

	@Test
	void aDependentThatNoOwnerReferenceReachesIsDeletedByTheFinalizersCleanup() throws Exception {
		String ns = this.namespace.name();
		String elsewhere = ns + "-elsewhere";
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespace(
				new io.kubernetes.client.openapi.models.V1Namespace().metadata(new V1ObjectMeta().name(elsewhere)))
			.execute();
		try {
			Dependent<Stack, V1ConfigMap> published = Dependent.of("published", V1ConfigMap.class,
					(stack, context) -> new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(stack.getMetadata().getName()).namespace(elsewhere))
						.putDataItem("greeting", stack.getSpec().greeting()));
			this.manager = ControllerManager.builder(this.managerClient.client())
				.listener(new Recorder())
				.controller(ControllerDefinition.builder(Stack.class)
					.named("far-stacks")
					// two namespaces: one informer per type reads both, cluster-wide,
					// which the derived ClusterRole of reads allows
					.namespaces(ns, elsewhere)
					.labelSelector("test=far")
					.dependent(published)
					.finalizer("deps.test.kubereconciler.dev/published", (stack, context) -> Result.done())
					.reconcile((stack, context) -> Result.done()))
				.build();
			this.manager.start();
			createStack("far", 0, false, Map.of("test", "far"));
			await().atMost(TIMEOUT)
				.until(() -> read(() -> core.readNamespacedConfigMap("far", elsewhere).execute()) != null);
			V1ConfigMap far = core.readNamespacedConfigMap("far", elsewhere).execute();
			assertThat(far.getMetadata().getOwnerReferences()).isNullOrEmpty();
			assertThat(far.getMetadata().getAnnotations()).containsKey(DependentLabels.OWNER_UID)
				.containsEntry(DependentLabels.OWNER, ns + "/far");
			// its changes reconcile the Stack through that annotation, so drift is put
			// back
			far.getData().put("greeting", "tampered");
			core.replaceNamespacedConfigMap("far", elsewhere, far).execute();
			await().atMost(TIMEOUT)
				.until(() -> "hello"
					.equals(core.readNamespacedConfigMap("far", elsewhere).execute().getData().get("greeting")));
			stacks().delete(ns, "far").throwsApiException();
			await().atMost(TIMEOUT)
				.until(() -> read(() -> core.readNamespacedConfigMap("far", elsewhere).execute()) == null);
			await().atMost(TIMEOUT)
				.until(() -> read(() -> stacks().get(ns, "far").throwsApiException().getObject()) == null);
			assertThat(this.prunes).containsExactly("published");
		}
		finally {
			core.deleteNamespace(elsewhere).execute();
		}
	}

	@Test
	void aClusterScopedDependentOfANamespacedPrimaryIsDeletedByTheFinalizersCleanup() throws Exception {
		String ns = this.namespace.name();
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.client);
		Dependent<Stack, V1ClusterRole> role = Dependent.of("reader", V1ClusterRole.class,
				(stack, context) -> new V1ClusterRole().metadata(new V1ObjectMeta().name(ns + "-reader")));
		this.manager = ControllerManager.builder(this.managerClient.client())
			.listener(new Recorder())
			.controller(ControllerDefinition.builder(Stack.class)
				.named("cluster-stacks")
				// no namespaces: a namespaced informer cannot list a cluster-scoped type
				.labelSelector("test=cluster")
				.dependent(role)
				.finalizer("deps.test.kubereconciler.dev/reader", (stack, context) -> Result.done())
				.reconcile((stack, context) -> Result.done()))
			.build();
		this.manager.start();
		createStack("cluster", 0, false, Map.of("test", "cluster"));
		await().atMost(TIMEOUT).until(() -> read(() -> rbac.readClusterRole(ns + "-reader").execute()) != null);
		assertThat(rbac.readClusterRole(ns + "-reader").execute().getMetadata().getAnnotations())
			.containsEntry(DependentLabels.OWNER, ns + "/cluster");
		stacks().delete(ns, "cluster").throwsApiException();
		await().atMost(TIMEOUT).until(() -> read(() -> rbac.readClusterRole(ns + "-reader").execute()) == null);
		await().atMost(TIMEOUT)
			.until(() -> read(() -> stacks().get(ns, "cluster").throwsApiException().getObject()) == null);
		assertThat(this.prunes).containsExactly("reader");
	}

	@Test
	void aFreshControllerPrunesAnObjectNoOwnerReferenceReachesWhosePreconditionTurnedFalseWhileItWasDown()
			throws Exception {
		String ns = this.namespace.name();
		String elsewhere = ns + "-away";
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespace(
				new io.kubernetes.client.openapi.models.V1Namespace().metadata(new V1ObjectMeta().name(elsewhere)))
			.execute();
		try {
			this.manager = publishing(elsewhere);
			this.manager.start();
			createStack("restart", 0, true, Map.of("test", "restart"));
			await().atMost(TIMEOUT)
				.until(() -> read(() -> core.readNamespacedConfigMap("restart", elsewhere).execute()) != null);
			this.manager.stop();
			patchSpec("restart", "{\"spec\":{\"exposed\":false}}");
			// as after a restart, or on another replica: a controller that applied
			// nothing yet
			this.manager = publishing(elsewhere);
			this.manager.start();
			await().atMost(TIMEOUT)
				.until(() -> read(() -> core.readNamespacedConfigMap("restart", elsewhere).execute()) == null);
			assertThat(this.prunes).containsExactly("published");
			stacks().delete(ns, "restart").throwsApiException();
			await().atMost(TIMEOUT)
				.until(() -> read(() -> stacks().get(ns, "restart").throwsApiException().getObject()) == null);
		}
		finally {
			core.deleteNamespace(elsewhere).execute();
		}
	}

	private ControllerManager publishing(String elsewhere) {
		Dependent<Stack, V1ConfigMap> published = Dependent.of("published", V1ConfigMap.class,
				(stack, context) -> new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(stack.getMetadata().getName()).namespace(elsewhere))
					.putDataItem("greeting", stack.getSpec().greeting()),
				(options) -> options.reconcileWhen((stack, context) -> stack.getSpec().exposed()));
		return ControllerManager.builder(this.managerClient.client())
			.listener(new Recorder())
			.controller(ControllerDefinition.builder(Stack.class)
				.named("restarted-stacks")
				.namespaces(this.namespace.name(), elsewhere)
				.labelSelector("test=restart")
				.dependent(published)
				.finalizer("deps.test.kubereconciler.dev/published", (stack, context) -> Result.done())
				.reconcile((stack, context) -> Result.done()))
			.build();
	}

	@Test
	void aDependentThatNoOwnerReferenceReachesNeedsAFinalizer() throws Exception {
		String ns = this.namespace.name();
		Dependent<Stack, V1ConfigMap> published = Dependent.of("published", V1ConfigMap.class,
				(stack, context) -> new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(stack.getMetadata().getName()).namespace("kube-public")));
		List<String> failures = new CopyOnWriteArrayList<>();
		this.manager = ControllerManager.builder(this.managerClient.client()).listener(new ControllerListener() {

			@Override
			public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
					Throwable error) {
				if (error != null) {
					failures.add(outcome + ": " + error.getMessage());
				}
			}

		})
			.controller(ControllerDefinition.builder(Stack.class)
				.named("stray-stacks")
				.labelSelector("test=stray")
				.dependent(published)
				.reconcile((stack, context) -> Result.done()))
			.build();
		this.manager.start();
		createStack("stray", 0, false, Map.of("test", "stray"));
		await().atMost(TIMEOUT).until(() -> !failures.isEmpty());
		assertThat(failures.get(0)).startsWith(ReconcileOutcome.TERMINAL_ERROR + ": ")
			.contains("Dependent 'published' applies ConfigMap kube-public/stray, which no owner reference from Stack "
					+ ns + "/stray can reach")
			.contains("give controller 'stray-stacks' a finalizer");
	}

	private void start(Duration resync) {
		ControllerDefinition definition = ControllerDefinition.builder(Stack.class)
			.named("stacks")
			.namespaces(this.namespace.name())
			.labelSelector("test=" + this.testLabel)
			.resyncPeriod(resync)
			.dependent(StackDependents.config())
			.dependent(StackDependents.secret())
			.dependent(StackDependents.deployment())
			.dependent(StackDependents.service())
			.dependent(StackDependents.workers())
			.readyCondition(true)
			.reconcile((stack, context) -> {
				this.reconciles.incrementAndGet();
				this.readySeenByReconcile.add(context.dependents().ready());
				return Result.done();
			});
		this.manager = ControllerManager.builder(this.managerClient.client())
			.listener(new Recorder())
			.controller(definition)
			.build();
		this.manager.start();
	}

	private Stack createStack(String name, int workers, boolean exposed) throws ApiException {
		return createStack(name, workers, exposed, Map.of("test", this.testLabel));
	}

	private Stack createStack(String name, int workers, boolean exposed, Map<String, String> labels)
			throws ApiException {
		Stack stack = new Stack();
		stack.getMetadata().name(name).namespace(this.namespace.name()).labels(labels);
		stack.setSpec(new Stack.Spec("nginx:1.27", "hello", workers, exposed));
		return stacks().create(stack).throwsApiException().getObject();
	}

	private void patchSpec(String name, String patch) throws ApiException {
		stacks()
			.patch(this.namespace.name(), name, "application/merge-patch+json",
					new io.kubernetes.client.custom.V1Patch(patch))
			.throwsApiException();
	}

	private GenericKubernetesApi<Stack, CustomResourceList<Stack>> stacks() {
		return CustomResourceList.api(Stack.class, this.client);
	}

	private V1Condition readyCondition(String name) throws ApiException {
		Stack stack = stacks().get(this.namespace.name(), name).throwsApiException().getObject();
		if (stack.getStatus() == null || stack.getStatus().conditions() == null) {
			return null;
		}
		return stack.getStatus()
			.conditions()
			.stream()
			.filter((condition) -> "Ready".equals(condition.getType()))
			.findFirst()
			.orElse(null);
	}

	private void markAvailable(String name) throws ApiException {
		V1Deployment deployment = Objects.requireNonNull(deployment(name));
		deployment.setStatus(new V1DeploymentStatus().observedGeneration(deployment.getMetadata().getGeneration())
			.replicas(1)
			.updatedReplicas(1)
			.readyReplicas(1)
			.availableReplicas(1));
		new AppsV1Api(this.client).replaceNamespacedDeploymentStatus(name, this.namespace.name(), deployment).execute();
	}

	private List<String> firstWrites() {
		List<String> writes = new ArrayList<>();
		for (ApiRequest request : this.managerClient.recorder().allRequests()) {
			String written = request.resource() + "/" + request.name();
			if (request.verb().equals("patch") && request.subresource().isEmpty() && !writes.contains(written)
					&& !request.resource().equals("stacks")) {
				writes.add(written);
			}
		}
		return writes;
	}

	private List<String> workers(String stack) throws ApiException {
		return new CoreV1Api(this.client).listNamespacedConfigMap(this.namespace.name())
			.labelSelector("dependents.kubereconciler.dev/name=workers")
			.execute()
			.getItems()
			.stream()
			.map((configMap) -> configMap.getMetadata().getName())
			.toList();
	}

	private V1ConfigMap configMap(String name) throws ApiException {
		return read(() -> new CoreV1Api(this.client).readNamespacedConfigMap(name, this.namespace.name()).execute());
	}

	private V1Secret secret(String name) throws ApiException {
		return read(() -> new CoreV1Api(this.client).readNamespacedSecret(name, this.namespace.name()).execute());
	}

	private V1Deployment deployment(String name) throws ApiException {
		return read(() -> new AppsV1Api(this.client).readNamespacedDeployment(name, this.namespace.name()).execute());
	}

	private V1Service service(String name) throws ApiException {
		return read(() -> new CoreV1Api(this.client).readNamespacedService(name, this.namespace.name()).execute());
	}

	private static <T> T read(Read<T> read) throws ApiException {
		try {
			return read.read();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	@FunctionalInterface
	private interface Read<T> {

		T read() throws ApiException;

	}

	private final class Recorder implements ControllerListener {

		@Override
		public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
				Throwable error) {
			if (error != null) {
				DependentsIntegrationTests.this.errors.add(controller + ": " + error);
			}
		}

		@Override
		public void dependentApplied(String controller, String dependent, boolean changed, boolean drift) {
			DependentsIntegrationTests.this.applies
				.add(dependent + ":" + (changed ? "changed" : "unchanged") + (drift ? ":drift" : ""));
		}

		@Override
		public void dependentPruned(String controller, String dependent) {
			DependentsIntegrationTests.this.prunes.add(dependent);
		}

	}

	/**
	 * The Stack's dependents, as a user would declare them.
	 */
	static final class StackDependents {

		private StackDependents() {
		}

		static Dependent<Stack, V1ConfigMap> config() {
			return Dependent.of("config", V1ConfigMap.class,
					(stack, context) -> new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(stack.getMetadata().getName()))
						.data(Map.of("greeting", stack.getSpec().greeting())));
		}

		static Dependent<Stack, V1Secret> secret() {
			return Dependent.of("secret", V1Secret.class,
					(stack, context) -> new V1Secret().metadata(new V1ObjectMeta().name(stack.getMetadata().getName()))
						.stringData(Map.of("token", "s3cret")));
		}

		static Dependent<Stack, V1Deployment> deployment() {
			return Dependent.of("deployment", V1Deployment.class, StackDependents::desiredDeployment,
					(options) -> options.dependsOn("config", "secret")
						.readyWhen(ReadyPostcondition.deploymentAvailable()));
		}

		static Dependent<Stack, V1Service> service() {
			return Dependent.of("service", V1Service.class,
					(stack, context) -> new V1Service().metadata(new V1ObjectMeta().name(stack.getMetadata().getName()))
						.spec(new V1ServiceSpec().selector(Map.of("app", stack.getMetadata().getName()))
							.ports(List
								.of(new V1ServicePort().name("http").port(80).targetPort(new IntOrString(8080))))),
					(options) -> options.dependsOn("deployment")
						.reconcileWhen((stack, context) -> stack.getSpec().exposed()));
		}

		static Dependent<Stack, V1ConfigMap> workers() {
			return Dependent.bulk("workers", V1ConfigMap.class,
					(stack, context) -> IntStream.range(0, stack.getSpec().workers())
						.mapToObj((i) -> new V1ConfigMap()
							.metadata(new V1ObjectMeta().name(stack.getMetadata().getName() + "-worker-" + i))
							.data(Map.of("index", Integer.toString(i))))
						.toList());
		}

		static V1Deployment desiredDeployment(Stack stack,
				dev.kubereconciler.reconcile.ReconcileContext<Stack> context) {
			String name = stack.getMetadata().getName();
			return new V1Deployment().metadata(new V1ObjectMeta().name(name))
				.spec(new V1DeploymentSpec().replicas(1)
					.selector(new V1LabelSelector().matchLabels(Map.of("app", name)))
					.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", name)))
						.spec(new V1PodSpec().containers(List.of(new V1Container().name("app")
							.image(stack.getSpec().image())
							.envFrom(List.of(new V1EnvFromSource().configMapRef(new V1ConfigMapEnvSource().name(name)),
									new V1EnvFromSource().secretRef(new V1SecretEnvSource().name(name)))))))));
		}

	}

}
