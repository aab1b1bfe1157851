package dev.kubereconciler.cluster;

import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.rbac.FleetRbac;
import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.rbac.RbacManifests;
import dev.kubereconciler.rbac.RbacPolicy;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.test.rbac.ApiRequest;
import dev.kubereconciler.test.rbac.RbacAuthorizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The derived RBAC of a fleet, applied per cluster on three API servers enforcing RBAC:
 * the members' rules on two members, the local cluster's on the hub, and a manager whose
 * every client is the application's ServiceAccount, outside {@code system:masters}, its
 * members' clients made from kubeconfig Secrets on the hub. Judged from each server's
 * audit log, every request the manager made: none refused (enough), and each granted verb
 * on each resource needed by one of them (no more).
 */
@KubernetesTest(crds = "dev/kubereconciler/cluster/widgets.yaml")
class FleetRbacIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String APPLICATION = "fleet-manager";

	private static final List<String> MEMBERS = List.of("two", "three");

	// get on a watched type and on /status, granted as kubebuilder's markers grant
	// them, though the manager reads from its caches and writes status without a get
	private static final Map<String, Set<String>> CONVENTION = Map.of("one", Set.of("controllers: get  services"),
			"two",
			Set.of("controllers: get fleet.test.kubereconciler.dev widgets",
					"controllers: get fleet.test.kubereconciler.dev widgets/status", "controllers: get  configmaps"),
			"three", Set.of("controllers: get fleet.test.kubereconciler.dev widgets",
					"controllers: get fleet.test.kubereconciler.dev widgets/status", "controllers: get  configmaps"));

	private static FleetServers servers;

	ApiClient client;

	TestNamespace namespace;

	private final Map<String, Integer> localReconciles = new ConcurrentHashMap<>();

	@BeforeAll
	static void startServers() {
		servers = new FleetServers();
	}

	@AfterAll
	static void stopServers() {
		if (servers != null) {
			servers.close();
		}
	}

	@Test
	void theDerivedRulesOfEachClusterAreEnoughAndNoMore() throws Exception {
		String ns = this.namespace.name();
		String user = "system:serviceaccount:" + ns + ":" + APPLICATION;
		ApiClient hubIdentity = clientOf(kubeconfig("one", ns));
		KubeconfigSecretProvider provider = new KubeconfigSecretProvider(hubIdentity, ns, "fleet-rbac=member",
				"kubeconfig");
		List<ControllerDefinition> definitions = List.of(widgets(ns), services(ns));
		Map<String, RbacPolicy> policies = new LinkedHashMap<>();
		policies.put("one", FleetRbac.providers(FleetRbac.local(definitions), List.of(provider)).build());
		RbacPolicy members = FleetRbac.members(definitions).build();
		MEMBERS.forEach((member) -> policies.put(member, members));
		deploy(policies, ns);
		awaitBindings(() -> new CoreV1Api(hubIdentity).listNamespacedService(ns).execute());
		Instant start = Instant.now();
		ControllerManager manager = ControllerManager.builder(hubIdentity)
			.controller(definitions.get(0))
			.controller(definitions.get(1))
			.clusterProvider(provider)
			.clusterEvents(FleetIntegrationTests::events)
			.build();
		manager.start();
		try {
			reconcileOnEveryCluster(ns, user);
			await().atMost(TIMEOUT).untilAsserted(() -> {
				for (String cluster : policies.keySet()) {
					List<ApiRequest> requests = requests(cluster, user, start);
					RbacAuthorizer.assertAllowed(policies.get(cluster), requests);
					assertThat(unneeded(policies.get(cluster), requests)).as("granted and never needed on " + cluster)
						.containsExactlyInAnyOrderElementsOf(CONVENTION.get(cluster));
				}
			});
			assertNothingRefused(user);
		}
		finally {
			manager.stop();
		}
	}

	// as the manifests are applied to each cluster: the ServiceAccount, and each role
	// and its binding; then the members' kubeconfigs of that ServiceAccount in Secrets
	// on the hub
	private void deploy(Map<String, RbacPolicy> policies, String ns) throws Exception {
		servers.createNamespace(ns);
		for (String cluster : FleetServers.NAMES) {
			new CoreV1Api(servers.client(cluster))
				.createNamespacedServiceAccount(ns,
						new V1ServiceAccount().metadata(new V1ObjectMeta().name(APPLICATION)))
				.execute();
		}
		policies.forEach((cluster, policy) -> apply(cluster, policy, ns));
		for (String member : MEMBERS) {
			String kubeconfig = kubeconfig(member, ns);
			new CoreV1Api(this.client)
				.createNamespacedSecret(ns,
						new V1Secret()
							.metadata(new V1ObjectMeta().name("member-" + member).putLabelsItem("fleet-rbac", "member"))
							.putStringDataItem("kubeconfig", kubeconfig))
				.execute();
			ApiClient identity = clientOf(kubeconfig);
			awaitBindings(() -> FleetServers.widgets(identity).list(ns).throwsApiException());
		}
	}

	// enough: reconciled on each member in its own cluster, twice, and the local
	// controller on the hub
	private void reconcileOnEveryCluster(String ns, String user) throws ApiException {
		new CoreV1Api(this.client)
			.createNamespacedService(ns,
					new V1Service().metadata(new V1ObjectMeta().name("web"))
						.spec(new V1ServiceSpec().ports(List.of(new V1ServicePort().port(80)))))
			.execute();
		for (String member : MEMBERS) {
			FleetServers.widgets(servers.client(member)).create(Widget.named(ns, "gear")).throwsApiException();
		}
		for (String member : MEMBERS) {
			await().atMost(TIMEOUT).untilAsserted(() -> {
				assertNothingRefused(user);
				assertThat(status(member, ns)).isEqualTo(new Widget.Status("member-" + member));
			});
			// a second reconcile repeats the Event, which patches its series
			FleetServers.widgets(servers.client(member))
				.patch(ns, "gear", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch("{\"spec\":{\"size\":2}}"))
				.throwsApiException();
		}
		await().atMost(TIMEOUT).until(() -> this.localReconciles.containsKey(ns + "/web"));
	}

	private static void assertNothingRefused(String user) {
		for (String cluster : FleetServers.NAMES) {
			List<String> refused = servers.server(cluster)
				.auditEvents()
				.stream()
				.filter((event) -> event.user().equals(user) && event.forbidden())
				.map((event) -> event.verb() + " " + event.group() + " " + event.resource() + " " + event.subresource()
						+ " in " + event.namespace())
				.distinct()
				.toList();
			assertThat(refused).as("refused on " + cluster).isEmpty();
		}
	}

	// each granted verb on each resource of each role whose removal leaves one of the
	// requests not allowed; the others are not needed
	private static List<String> unneeded(RbacPolicy policy, List<ApiRequest> requests) {
		List<String> unneeded = new ArrayList<>();
		List<RbacPolicy.Role> atoms = new ArrayList<>();
		for (RbacPolicy.Role role : policy.roles()) {
			for (PolicyRule rule : role.rules()) {
				for (String group : rule.apiGroups()) {
					for (String resource : rule.resources()) {
						for (String verb : rule.verbs()) {
							atoms.add(new RbacPolicy.Role(role.purpose(), role.namespace(),
									List.of(new PolicyRule(List.of(group), List.of(resource), List.of(verb),
											rule.resourceNames()))));
						}
					}
				}
			}
		}
		for (RbacPolicy.Role atom : atoms) {
			List<RbacPolicy.Role> others = new ArrayList<>(atoms);
			others.remove(atom);
			RbacPolicy without = new RbacPolicy(others);
			if (requests.stream().allMatch((request) -> RbacAuthorizer.allows(without, request))) {
				PolicyRule rule = atom.rules().get(0);
				unneeded.add(atom.purpose() + ": " + rule.verbs().get(0) + " " + rule.apiGroups().get(0) + " "
						+ rule.resources().get(0));
			}
		}
		return unneeded;
	}

	// every request the identity made since the manager started, as the server logged
	// it
	private static List<ApiRequest> requests(String cluster, String user, Instant start) {
		return servers.server(cluster)
			.auditEvents()
			.stream()
			.filter((event) -> event.user().equals(user) && !event.received().isBefore(start))
			.map((event) -> new ApiRequest(event.verb(), event.group(), event.resource(), event.subresource(),
					event.namespace(), event.name(), event.uri().split("\\?", 2)[0], "audit"))
			.distinct()
			.toList();
	}

	// as the generated manifests are applied: each role and its binding
	private static void apply(String cluster, RbacPolicy policy, String ns) {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(servers.client(cluster));
		try {
			for (KubernetesObject object : RbacManifests.objects(policy, APPLICATION, ns)) {
				if (object instanceof V1Role role) {
					rbac.createNamespacedRole(role.getMetadata().getNamespace(), role).execute();
				}
				else if (object instanceof V1RoleBinding binding) {
					rbac.createNamespacedRoleBinding(binding.getMetadata().getNamespace(), binding).execute();
				}
				else if (object instanceof V1ClusterRole role) {
					rbac.createClusterRole(role).execute();
				}
				else {
					rbac.createClusterRoleBinding((V1ClusterRoleBinding) object).execute();
				}
			}
		}
		catch (ApiException ex) {
			throw new IllegalStateException(ex.getCode() + " " + ex.getResponseBody(), ex);
		}
	}

	// a kubeconfig of the application's ServiceAccount in a cluster. The test servers
	// serve no serviceaccounts/token, so the identity is given by a client certificate
	// the server's CA signs, which the server's RBAC judges as it judges a token's: by
	// the user and groups bound
	private static String kubeconfig(String cluster, String ns) {
		return servers.server(cluster)
			.kubeconfig("system:serviceaccount:" + ns + ":" + APPLICATION, "system:serviceaccounts");
	}

	private static ApiClient clientOf(String kubeconfig) throws Exception {
		return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeconfig)))
			.setReadTimeout(Duration.ZERO)
			.build();
	}

	// the server's RBAC reads the bindings from its cache, which may lag the create; a
	// request of the identity that a Role allows shows them there
	private static void awaitBindings(Callable<?> allowed) {
		await().atMost(TIMEOUT).ignoreExceptions().until(() -> allowed.call() != null);
	}

	private static Widget.Status status(String member, String ns) throws ApiException {
		return FleetServers.widgets(servers.client(member))
			.get(ns, "gear")
			.throwsApiException()
			.getObject()
			.getStatus();
	}

	// every write the members' rules grant on an owned type (create, update, patch,
	// delete, apply), on the status (update, apply) and on Events
	private static ControllerDefinition widgets(String ns) {
		return ControllerDefinition.builder(Widget.class)
			.named("widgets")
			.namespaces(ns)
			.clusters(ClusterScope.FLEET)
			.owns(V1ConfigMap.class)
			.reconcile((widget, context) -> {
				String cluster = context.request().cluster();
				String name = widget.getMetadata().getName();
				V1ConfigMap scratch = new V1ConfigMap().apiVersion("v1")
					.kind("ConfigMap")
					.metadata(new V1ObjectMeta().namespace(ns).generateName(name + "-scratch-"));
				context.setControllerReference(widget, scratch);
				scratch = context.create(scratch);
				scratch = context.update(scratch.putDataItem("step", "updated"));
				context.patch(scratch, "{\"data\":{\"step\":\"patched\"}}");
				context.delete(scratch);
				V1ConfigMap config = new V1ConfigMap().apiVersion("v1")
					.kind("ConfigMap")
					.metadata(new V1ObjectMeta().namespace(ns).name(name + "-config"))
					.putDataItem("cluster", cluster);
				context.setControllerReference(widget, config);
				context.apply(config);
				context.events().normal(widget, "Reconciled", "Reconcile", "reconciled in " + cluster);
				widget.setStatus(new Widget.Status(cluster));
				Widget updated = context.updateStatus(widget);
				context.applyStatus(updated, true);
				return Result.done();
			});
	}

	private ControllerDefinition services(String ns) {
		return ControllerDefinition.builder(V1Service.class)
			.named("services")
			.namespaces(ns)
			.reconcile((Request request) -> {
				this.localReconciles.merge(request.namespace() + "/" + request.name(), 1, Integer::sum);
				return Result.done();
			});
	}

}
