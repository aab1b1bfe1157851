package dev.kubereconciler.cluster;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Cluster Inventory API on a real hub: ClusterProfiles with their kubeconfig Secrets
 * engage and disengage real member API servers as the profiles come, turn healthy or
 * unhealthy, and go.
 */
@KubernetesTest(crds = { "dev/kubereconciler/cluster/widgets.yaml", "dev/kubereconciler/cluster/clusterprofiles.yaml" })
class ClusterProfileProviderTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String CONSUMER = "widgets-manager";

	private static FleetServers servers;

	ApiClient client;

	TestNamespace namespace;

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
	void healthyProfilesWithTheirSecretEngageTheirClusterAndUnhealthyOrDeletedOnesDisengageIt() throws Exception {
		String ns = this.namespace.name();
		servers.createNamespace(ns);
		for (String member : List.of("two", "three")) {
			FleetServers.widgets(servers.client(member)).create(Widget.named(ns, "gear")).throwsApiException();
			kubeconfigSecret(ns, member);
		}
		ControllerManager manager = ControllerManager.builder(this.client)
			.controller(FleetIntegrationTests.widgets(ns))
			.clusterProvider(new ClusterProfileProvider(this.client, ns, CONSUMER))
			.build();
		manager.start();
		try {
			// three's profile comes first, unhealthy, and two's after it, healthy: once
			// two is engaged, three's profile was decided, and left out
			profile(ns, "three", "False");
			profile(ns, "two", "True");
			await().atMost(TIMEOUT).untilAsserted(() -> {
				assertThat(status("two", ns)).isEqualTo(new Widget.Status("two"));
				assertThat(manager.clusters()).extracting(ClusterStatus::name).containsExactly("two");
			});
			assertThat(status("three", ns)).isNull();
			health(ns, "three", "True");
			await().atMost(TIMEOUT).untilAsserted(() -> {
				assertThat(status("three", ns)).isEqualTo(new Widget.Status("three"));
				assertThat(manager.clusters()).extracting(ClusterStatus::name).containsExactly("three", "two");
			});
			health(ns, "three", "False");
			await().atMost(TIMEOUT)
				.untilAsserted(
						() -> assertThat(manager.clusters()).extracting(ClusterStatus::name).containsExactly("two"));
			profiles(this.client).delete(ns, "two").throwsApiException();
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(manager.clusters()).isEmpty());
		}
		finally {
			manager.stop();
		}
	}

	private void kubeconfigSecret(String ns, String member) throws Exception {
		new CoreV1Api(this.client).createNamespacedSecret(ns,
				new V1Secret()
					.metadata(new V1ObjectMeta().name(member + "-kubeconfig")
						.putLabelsItem(ClusterProfileProvider.CONSUMER_LABEL, CONSUMER)
						.putLabelsItem(ClusterProfileProvider.PROFILE_LABEL, member))
					.putDataItem(ClusterProfileProvider.KUBECONFIG_KEY,
							Files.readAllBytes(servers.server(member).kubeconfig())))
			.execute();
	}

	private void profile(String ns, String name, String healthy) throws ApiException {
		ClusterProfile profile = new ClusterProfile();
		profile.setMetadata(new V1ObjectMeta().namespace(ns).name(name));
		profile.setSpec(new ClusterProfile.Spec(new ClusterProfile.ClusterManager("fleet-tests"), name));
		profiles(this.client).create(profile).throwsApiException();
		health(ns, name, healthy);
	}

	@SuppressWarnings("unchecked")
	private void health(String ns, String name, String healthy) throws ApiException {
		// as a cluster manager writes it: the status subresource, as JSON
		CustomObjectsApi api = new CustomObjectsApi(this.client);
		Map<String, Object> profile = (Map<String, Object>) api
			.getNamespacedCustomObject(ClusterProfile.GROUP, "v1alpha1", ns, "clusterprofiles", name)
			.execute();
		profile.put("status",
				Map.of("conditions",
						List.of(Map.of("type", ClusterProfile.CONTROL_PLANE_HEALTHY, "status", healthy, "reason",
								"Probed", "message", "the test says so", "lastTransitionTime",
								DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS))))));
		api.replaceNamespacedCustomObjectStatus(ClusterProfile.GROUP, "v1alpha1", ns, "clusterprofiles", name, profile)
			.execute();
	}

	private static Widget.Status status(String member, String ns) throws ApiException {
		return FleetServers.widgets(servers.client(member))
			.get(ns, "gear")
			.throwsApiException()
			.getObject()
			.getStatus();
	}

	private static GenericKubernetesApi<ClusterProfile, CustomResourceList<ClusterProfile>> profiles(ApiClient client) {
		return CustomResourceList.api(ClusterProfile.class, client);
	}

}
