package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.rbac.ControllerRbac;
import dev.kubereconciler.rbac.RbacManifests;
import dev.kubereconciler.rbac.RbacPolicy;
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
 * Controllers of several namespaces against the API server enforcing RBAC, run under an
 * identity that holds only the Roles derived from their definitions: one informer per
 * namespace reads each, so no ClusterRole is needed, and namespaces change while the
 * controllers run.
 */
@KubernetesTest
class NamespacesUnderRbacIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final Duration QUIET = Duration.ofSeconds(1);

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private final List<String> extraNamespaces = new ArrayList<>();

	private final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();

	private final List<String> refused = new CopyOnWriteArrayList<>();

	private ApiRequestRecorder recorder;

	private ControllerManager manager;

	@AfterEach
	void stop() throws ApiException {
		if (this.manager != null) {
			this.manager.stop();
		}
		for (String name : this.extraNamespaces) {
			new CoreV1Api(this.client).deleteNamespace(name).execute();
		}
	}

	@Test
	void controllersOfTwoNamespacesRunUnderTheirRolesAloneWithNoClusterRoleForReads() throws ApiException {
		String a = this.namespace.name();
		String b = createNamespace("two-b");
		String unwatched = createNamespace("two-u");
		List<ControllerDefinition> definitions = List.of(counting("both", a, b), counting("second", b));
		RbacPolicy policy = ControllerRbac.derive(definitions).build();
		assertThat(policy.roles()).noneMatch(RbacPolicy.Role::clusterWide);
		assertThat(policy.roles()).extracting(RbacPolicy.Role::namespace).containsExactlyInAnyOrder(a, b);
		ApiClient identity = deploy("two-namespaces", policy, a);
		for (String ns : List.of(a, b, unwatched)) {
			createConfigMap(ns, "first");
		}
		this.manager = ControllerManager.builder(identity)
			.controller(definitions.get(0))
			.controller(definitions.get(1))
			.build();
		this.manager.start();
		await().atMost(TIMEOUT)
			.until(() -> this.reconciles.keySet()
				.containsAll(List.of("both " + a + "/first", "both " + b + "/first", "second " + b + "/first")));
		assertThat(this.manager.lister(V1ConfigMap.class).list()).extracting((map) -> map.getMetadata().getNamespace())
			.containsOnly(a, b);
		Map<String, Integer> counts = snapshotWhenQuiet();
		assertThat(counts).doesNotContainKey("both " + unwatched + "/first").allSatisfy((key, count) -> {
			assertThat(count).as(key).isEqualTo(1);
		});
		// the server refused nothing, the proof allows every request, and none left the
		// two namespaces: no list or watch of every namespace
		assertThat(this.refused).isEmpty();
		List<ApiRequest> requests = this.recorder.requests();
		RbacAuthorizer.assertAllowed(policy, requests);
		assertThat(requests).filteredOn(ApiRequest::isResourceRequest)
			.extracting(ApiRequest::namespace)
			.containsOnly(a, b);
	}

	@Test
	void aNamespaceAddedAtRunTimeIsWatchedAndOneRemovedIsNotWithNoKeyLostOrReconciledTwice() throws Exception {
		String a = this.namespace.name();
		String b = createNamespace("mv-b");
		String c = createNamespace("mv-c");
		CountDownLatch inFlight = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicReference<String> holdKey = new AtomicReference<>("");
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("moving")
			.namespaces(a, b)
			.reconcile((request) -> {
				String key = request.namespace() + "/" + request.name();
				this.reconciles.computeIfAbsent("moving " + key, (k) -> new AtomicInteger()).incrementAndGet();
				if (key.equals(holdKey.get())) {
					inFlight.countDown();
					release.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
				}
				return Result.done();
			});
		// the user grants the namespace added at run time, which the derived RBAC cannot
		// know: the Roles of a definition that names it too
		RbacPolicy policy = ControllerRbac.derive(List.of(definition,
				ControllerDefinition.builder(V1ConfigMap.class)
					.named("grant")
					.namespaces(c)
					.reconcile((request) -> Result.done())))
			.build();
		ApiClient identity = deploy("moving", policy, a);
		for (String ns : List.of(a, b, c)) {
			createConfigMap(ns, "one");
		}
		createConfigMap(b, "queued");
		this.manager = ControllerManager.builder(identity).controller(definition).build();
		this.manager.start();
		Controller controller = this.manager.controller("moving");
		await().atMost(TIMEOUT).until(() -> count(a, "one") == 1 && count(b, "one") == 1 && count(b, "queued") == 1);
		// a reconcile of the namespace to remove is in flight while it is removed, and
		// another key of it waits in the queue behind the one worker
		holdKey.set(b + "/one");
		touch(b, "one");
		assertThat(inFlight.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		touch(b, "queued");
		await().atMost(TIMEOUT).until(() -> controller.queue().depth() == 1);
		controller.changeNamespaces(Set.of(a, c)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		assertThat(controller.namespaces()).containsExactlyInAnyOrder(a, c);
		release.countDown();
		touch(b, "one");
		createConfigMap(b, "two");
		touch(a, "one");
		createConfigMap(c, "two");
		await().atMost(TIMEOUT).until(() -> count(a, "one") == 2 && count(c, "one") == 1 && count(c, "two") == 1);
		Map<String, Integer> counts = snapshotWhenQuiet();
		Map<String, Integer> expected = Map.of("moving " + a + "/one", 2, "moving " + b + "/one", 2,
				"moving " + b + "/queued", 1, "moving " + c + "/one", 1, "moving " + c + "/two", 1);
		assertThat(counts).containsAllEntriesOf(expected).doesNotContainKey("moving " + b + "/two");
		// what other tests of the class left in the shared namespace was reconciled once
		counts.keySet().removeAll(expected.keySet());
		assertThat(counts).allSatisfy((key, count) -> assertThat(count).as(key).isEqualTo(1));
		assertThat(this.manager.lister(V1ConfigMap.class).list()).extracting((map) -> map.getMetadata().getNamespace())
			.doesNotContain(b)
			.contains(a, c);
		assertThat(this.refused).isEmpty();
		RbacAuthorizer.assertAllowed(policy, this.recorder.requests());
	}

	@Test
	void aNamespaceTheServerRefusesIsLoggedWithTheMissingPermissionAndTheOthersKeepRunning() throws Exception {
		String a = this.namespace.name();
		String denied = createNamespace("rf-d");
		ControllerDefinition definition = counting("granted", a);
		RbacPolicy policy = ControllerRbac.derive(List.of(definition)).build();
		ApiClient identity = deploy("refused", policy, a);
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		Logger logger = (Logger) LoggerFactory.getLogger("dev.kubereconciler.internal.cache.RefusedReads");
		logs.start();
		logger.addAppender(logs);
		try {
			createConfigMap(denied, "granted-one");
			this.manager = ControllerManager.builder(identity).controller(definition).build();
			this.manager.start();
			Controller controller = this.manager.controller("granted");
			createConfigMap(a, "granted-one");
			await().atMost(TIMEOUT).until(() -> count("granted", a, "granted-one") == 1);
			var joined = controller.changeNamespaces(Set.of(a, denied));
			await().atMost(TIMEOUT)
				.until(() -> logs.list.stream().anyMatch((event) -> event.getFormattedMessage().contains(denied)));
			assertThat(logs.list).first()
				.satisfies((event) -> assertThat(event.getFormattedMessage()).contains("namespace '" + denied + "'",
						"403 Forbidden", "Grant get, list and watch on configmaps", "Role and a RoleBinding"));
			createConfigMap(a, "granted-two");
			await().atMost(TIMEOUT).until(() -> count("granted", a, "granted-two") == 1);
			assertThat(joined).isNotDone();
			assertThat(controller.namespaces()).containsExactly(a);
			assertThat(this.reconciles).doesNotContainKey("granted " + denied + "/granted-one");
			assertThat(this.refused).isNotEmpty().allSatisfy((path) -> assertThat(path).contains(denied));
		}
		finally {
			logger.detachAppender(logs);
		}
	}

	private ControllerDefinition counting(String name, String... namespaces) {
		return ControllerDefinition.builder(V1ConfigMap.class)
			.named(name)
			.namespaces(namespaces)
			.reconcile((Request request) -> {
				this.reconciles
					.computeIfAbsent(name + " " + request.namespace() + "/" + request.name(),
							(k) -> new AtomicInteger())
					.incrementAndGet();
				return Result.done();
			});
	}

	// the policy deployed as target/kubernetes deploys it, and a client of its identity
	// whose requests are recorded and whose refusals are kept
	private ApiClient deploy(String application, RbacPolicy policy, String serviceAccountNamespace)
			throws ApiException {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.client);
		for (KubernetesObject object : RbacManifests.objects(policy, application, serviceAccountNamespace)) {
			String ns = object.getMetadata().getNamespace();
			if (object instanceof V1Role role) {
				rbac.createNamespacedRole(ns, role).execute();
			}
			else {
				rbac.createNamespacedRoleBinding(ns, (V1RoleBinding) object).execute();
			}
		}
		ApiClient identity = this.server.apiClient(
				"system:serviceaccount:" + serviceAccountNamespace + ":" + application, "system:serviceaccounts");
		// the server's RBAC reads the bindings from its cache, which may lag the create
		CoreV1Api asIdentity = new CoreV1Api(identity);
		await().atMost(TIMEOUT).ignoreExceptions().until(() -> {
			for (RbacPolicy.Role role : policy.roles()) {
				asIdentity.listNamespacedConfigMap(role.namespace()).execute();
			}
			return true;
		});
		identity.setHttpClient(identity.getHttpClient().newBuilder().addInterceptor((chain) -> {
			Response response = chain.proceed(chain.request());
			if (response.code() == 403) {
				this.refused.add(chain.request().url().encodedPath());
			}
			return response;
		}).build());
		this.recorder = ApiRequestRecorder.record(identity).recorder();
		return identity;
	}

	private String createNamespace(String suffix) throws ApiException {
		String name = this.namespace.name() + "-" + suffix;
		new CoreV1Api(this.client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
		this.extraNamespaces.add(name);
		return name;
	}

	private void createConfigMap(String ns, String name) throws ApiException {
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(ns,
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("version", "0")))
			.execute();
	}

	private void touch(String ns, String name) throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		V1ConfigMap map = core.readNamespacedConfigMap(name, ns).execute();
		int version = Integer.parseInt(map.getData().get("version"));
		core.replaceNamespacedConfigMap(name, ns, map.data(Map.of("version", Integer.toString(version + 1)))).execute();
	}

	private int count(String ns, String name) {
		return count("moving", ns, name);
	}

	private int count(String controller, String ns, String name) {
		AtomicInteger count = this.reconciles.get(controller + " " + ns + "/" + name);
		return (count != null) ? count.get() : 0;
	}

	private Map<String, Integer> snapshotWhenQuiet() {
		AtomicReference<Map<String, Integer>> last = new AtomicReference<>(Map.of());
		await().atMost(TIMEOUT).pollInterval(QUIET).until(() -> {
			Map<String, Integer> now = new java.util.TreeMap<>();
			this.reconciles.forEach((key, count) -> now.put(key, count.get()));
			return now.equals(last.getAndSet(now));
		});
		return last.get();
	}

}
