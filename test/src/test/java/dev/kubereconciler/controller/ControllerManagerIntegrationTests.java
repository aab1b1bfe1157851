package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.rbac.ControllerRbac;
import dev.kubereconciler.rbac.RbacRules;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.rbac.ApiRequest;
import dev.kubereconciler.test.rbac.ApiRequestRecorder;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.rbac.RbacAuthorizer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ControllerManager} against the real test API server: watch events,
 * owned objects, retries and leader election.
 */
@KubernetesTest
class ControllerManagerIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final Duration LEASE_DURATION = Duration.ofSeconds(4);

	private final List<ControllerManager> managers = new ArrayList<>();

	private final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	// the managers' own client, whose every request must be allowed by the derived
	// RBAC rules
	private ApiRequestRecorder.Recorded managerClient;

	@BeforeEach
	void recordManagerRequests() {
		this.managerClient = ApiRequestRecorder.record(this.server.apiClient());
	}

	@AfterEach
	void stopManagersAndCheckTheirRequestsAgainstTheDerivedRbac() {
		this.managers.forEach(ControllerManager::stop);
		List<ApiRequest> requests = this.managerClient.recorder().requests();
		assertThat(requests).isNotEmpty();
		RbacRules rules = ControllerRbac.derive(this.managers.stream()
			.flatMap((manager) -> manager.controllers().values().stream())
			.map(Controller::definition)
			.toList());
		this.managers.stream()
			.filter(ControllerManager::isLeaderElectionEnabled)
			.forEach((manager) -> rules.leases(manager.leaderElection().leaseNamespace()));
		RbacAuthorizer.assertAllowed(rules.build(), requests);
	}

	@Test
	void createUpdateAndDeleteEachReconcileTheirKey() throws ApiException {
		start(ControllerDefinition.builder(V1ConfigMap.class)
			.named("configmaps")
			.namespaces(this.namespace.name())
			.reconcile(counting()));
		CoreV1Api core = new CoreV1Api(this.client);
		V1ConfigMap created = core.createNamespacedConfigMap(this.namespace.name(), configMap("settings")).execute();
		await().atMost(TIMEOUT).until(() -> count("settings") == 1);
		core.replaceNamespacedConfigMap("settings", this.namespace.name(), created.data(Map.of("color", "blue")))
			.execute();
		await().atMost(TIMEOUT).until(() -> count("settings") == 2);
		core.deleteNamespacedConfigMap("settings", this.namespace.name()).execute();
		await().atMost(TIMEOUT).until(() -> count("settings") == 3);
		await().during(Duration.ofMillis(300)).atMost(TIMEOUT).until(() -> count("settings") == 3);
	}

	@Test
	void labelSelectorAndNamespaceScopeWhatIsReconciled() throws ApiException {
		start(ControllerDefinition.builder(V1ConfigMap.class)
			.named("selected")
			.namespaces(this.namespace.name())
			.labelSelector("mirror=true")
			.reconcile(counting()));
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespacedConfigMap(this.namespace.name(), configMap("plain")).execute();
		V1ConfigMap labelled = configMap("labelled");
		labelled.getMetadata().labels(Map.of("mirror", "true"));
		core.createNamespacedConfigMap(this.namespace.name(), labelled).execute();
		await().atMost(TIMEOUT).until(() -> count("labelled") == 1);
		assertThat(count("plain")).isZero();
		// one controller, one selector: the API server filters, and the cache holds only
		// what matches
		assertThat(this.managers.get(0).lister(V1ConfigMap.class).list())
			.extracting((configMap) -> configMap.getMetadata().getName())
			.contains("labelled")
			.doesNotContain("plain");
		V1ConfigMap current = core.readNamespacedConfigMap("labelled", this.namespace.name()).execute();
		current.getMetadata().setLabels(Map.of("mirror", "false"));
		core.replaceNamespacedConfigMap("labelled", this.namespace.name(), current).execute();
		// leaving the selector reconciles once more, so that the controller can clean up
		await().atMost(TIMEOUT).until(() -> count("labelled") == 2);
	}

	@Test
	void controllersWithDifferentSelectorsShareOneUnfilteredInformer() throws ApiException {
		Map<String, AtomicInteger> second = new ConcurrentHashMap<>();
		ControllerManager manager = ControllerManager.builder(this.managerClient.client())
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("red")
				.namespaces(this.namespace.name())
				.labelSelector("color=red")
				.reconcile(counting()))
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("blue")
				.namespaces(this.namespace.name())
				.labelSelector("color=blue")
				.reconcile((request) -> {
					second.computeIfAbsent(request.name(), (key) -> new AtomicInteger()).incrementAndGet();
					return Result.done();
				}))
			.build();
		this.managers.add(manager);
		manager.start();
		CoreV1Api core = new CoreV1Api(this.client);
		for (String color : List.of("red", "blue")) {
			V1ConfigMap configMap = configMap("colored-" + color);
			configMap.getMetadata().labels(Map.of("color", color));
			core.createNamespacedConfigMap(this.namespace.name(), configMap).execute();
		}
		await().atMost(TIMEOUT).until(() -> count("colored-red") == 1 && second.containsKey("colored-blue"));
		assertThat(count("colored-blue")).isZero();
		assertThat(second).doesNotContainKey("colored-red");
	}

	@Test
	void changeToAnOwnedObjectReconcilesItsOwner() throws ApiException {
		start(ControllerDefinition.builder(V1ConfigMap.class)
			.named("owners")
			.namespaces(this.namespace.name())
			.owns(V1Secret.class)
			.reconcile(counting()));
		CoreV1Api core = new CoreV1Api(this.client);
		V1ConfigMap owner = core.createNamespacedConfigMap(this.namespace.name(), configMap("owner")).execute();
		await().atMost(TIMEOUT).until(() -> count("owner") == 1);
		V1OwnerReference reference = new V1OwnerReference().apiVersion("v1")
			.kind("ConfigMap")
			.name("owner")
			.uid(owner.getMetadata().getUid())
			.controller(true);
		V1Secret secret = core
			.createNamespacedSecret(this.namespace.name(),
					new V1Secret().metadata(new V1ObjectMeta().name("child").ownerReferences(List.of(reference)))
						.stringData(Map.of("password", "one")))
			.execute();
		await().atMost(TIMEOUT).until(() -> count("owner") == 2);
		core.replaceNamespacedSecret("child", this.namespace.name(), secret.stringData(Map.of("password", "two")))
			.execute();
		await().atMost(TIMEOUT).until(() -> count("owner") >= 3);
		assertThat(count("child")).isZero();
	}

	@Test
	void deploymentsAreWatchedInTheAppsGroup() throws ApiException {
		start(ControllerDefinition.builder(V1Deployment.class)
			.named("deployments")
			.namespaces(this.namespace.name())
			.reconcile(counting()));
		Map<String, String> labels = Map.of("app", "web");
		new AppsV1Api(this.client)
			.createNamespacedDeployment(this.namespace.name(), new V1Deployment()
				.metadata(new V1ObjectMeta().name("web"))
				.spec(new V1DeploymentSpec().selector(new V1LabelSelector().matchLabels(labels))
					.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
						.spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("nginx")))))))
			.execute();
		await().atMost(TIMEOUT).until(() -> count("web") == 1);
	}

	@Test
	void failingThreeTimesIsRetriedOnTheLimitersDelays() throws ApiException {
		List<Long> attempts = new CopyOnWriteArrayList<>();
		start(ControllerDefinition.builder(V1ConfigMap.class)
			.named("flaky")
			.namespaces(this.namespace.name())
			.rateLimiter(RateLimiters.exponential(Duration.ofMillis(200), Duration.ofSeconds(10)))
			.labelSelector("test=flaky")
			.reconcile((request) -> {
				attempts.add(System.nanoTime());
				if (attempts.size() <= 3) {
					throw new IllegalStateException("attempt " + attempts.size() + " fails on purpose");
				}
				return Result.done();
			}));
		V1ConfigMap flaky = configMap("flaky");
		flaky.getMetadata().labels(Map.of("test", "flaky"));
		new CoreV1Api(this.client).createNamespacedConfigMap(this.namespace.name(), flaky).execute();
		await().atMost(TIMEOUT).until(() -> attempts.size() == 4);
		// 200 ms, 400 ms, 800 ms: never early, and in order
		long[] expected = { 200, 400, 800 };
		for (int i = 1; i < 4; i++) {
			long gapMillis = Duration.ofNanos(attempts.get(i) - attempts.get(i - 1)).toMillis();
			assertThat(gapMillis).as("gap before attempt %d", i + 1)
				.isGreaterThanOrEqualTo(expected[i - 1])
				.isLessThan(expected[i - 1] + 1000);
		}
		await().during(Duration.ofMillis(500)).atMost(TIMEOUT).until(() -> attempts.size() == 4);
	}

	@Test
	void onlyTheLeaderReconcilesAndTheOtherTakesOverWhenItStops() throws ApiException {
		Map<String, List<String>> byInstance = new ConcurrentHashMap<>();
		ControllerManager first = startElected("first", byInstance);
		await().atMost(TIMEOUT).until(first::isLeader);
		ControllerManager second = startElected("second", byInstance);
		CoreV1Api core = new CoreV1Api(this.client);
		core.createNamespacedConfigMap(this.namespace.name(), configMap("before")).execute();
		await().atMost(TIMEOUT).until(() -> byInstance.getOrDefault("first", List.of()).contains("before"));
		assertThat(second.isLeader()).isFalse();
		assertThat(second.controller("elected").state()).isEqualTo(ControllerState.WAITING_FOR_LEADERSHIP);
		assertThat(byInstance).doesNotContainKey("second");
		long stoppedAt = System.nanoTime();
		first.stop();
		await().atMost(LEASE_DURATION).until(second::isLeader);
		assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThanOrEqualTo(LEASE_DURATION);
		core.createNamespacedConfigMap(this.namespace.name(), configMap("after")).execute();
		await().atMost(TIMEOUT).until(() -> byInstance.getOrDefault("second", List.of()).contains("after"));
		assertThat(byInstance.get("first")).doesNotContain("after");
	}

	private ControllerManager startElected(String identity, Map<String, List<String>> byInstance) {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("elected")
			.namespaces(this.namespace.name())
			.reconcile((request) -> {
				byInstance.computeIfAbsent(identity, (key) -> new CopyOnWriteArrayList<>()).add(request.name());
				return Result.done();
			});
		ControllerManager manager = ControllerManager.builder(this.managerClient.client())
			.controller(definition)
			.leaderElection(new LeaderElectionSettings("elected-leader", this.namespace.name(), identity,
					new LeaseTiming(LEASE_DURATION, Duration.ofSeconds(3), Duration.ofMillis(500))))
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		this.managers.add(manager);
		manager.start();
		return manager;
	}

	private void start(ControllerDefinition definition) {
		ControllerManager manager = ControllerManager.builder(this.managerClient.client())
			.controller(definition)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		this.managers.add(manager);
		manager.start();
		assertThat(manager.controller(definition.name()).state()).isEqualTo(ControllerState.RUNNING);
	}

	private ReconcileFunction counting() {
		return (request) -> {
			this.reconciles.computeIfAbsent(request.key(), (key) -> new AtomicInteger()).incrementAndGet();
			return Result.done();
		};
	}

	private int count(String name) {
		AtomicInteger count = this.reconciles.get(new Request(this.namespace.name(), name).key());
		return (count != null) ? count.get() : 0;
	}

	private static V1ConfigMap configMap(String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("color", "red"));
	}

}
