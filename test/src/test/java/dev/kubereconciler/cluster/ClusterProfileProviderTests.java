package dev.kubereconciler.cluster;

import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Cluster Inventory API on a real hub: ClusterProfiles with their kubeconfig Secrets
 * engage and disengage real member API servers as the profiles come, turn healthy or
 * unhealthy, and go; ClusterProfiles naming an access provider engage theirs with the
 * credential a real exec plugin prints.
 */
@KubernetesTest(crds = { "dev/kubereconciler/cluster/widgets.yaml", "dev/kubereconciler/cluster/clusterprofiles.yaml" })
class ClusterProfileProviderTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String CONSUMER = "widgets-manager";

	private static FleetServers servers;

	private static boolean membersHaveNamespace;

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

	@BeforeEach
	void createMemberNamespaces() throws ApiException {
		if (!membersHaveNamespace) {
			servers.createNamespace(this.namespace.name());
			membersHaveNamespace = true;
		}
	}

	@Test
	void healthyProfilesWithTheirSecretEngageTheirClusterAndUnhealthyOrDeletedOnesDisengageIt() throws Exception {
		String ns = this.namespace.name();
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

	@Test
	void accessProvidersEngageWithTheCredentialTheirExecPluginPrintsAndRunItAgainWhenItExpires(@TempDir Path plugins)
			throws Exception {
		String ns = this.namespace.name();
		for (String member : List.of("two", "three")) {
			FleetServers.widgets(servers.client(member)).create(Widget.named(ns, "bolt")).throwsApiException();
		}
		MovableClock clock = new MovableClock(Instant.parse("2026-11-27T20:00:00Z"));
		Files.writeString(plugins.resolve("two.json"),
				execCredential(identity("two", "first"), clock.instant().plusSeconds(3600)));
		Files.writeString(plugins.resolve("three.json"), execCredential(identity("three", "first"), null));
		// as a user writes one: reads the credential from a file, and keeps what it
		// was given to tell of the cluster
		Path fleetPlugin = script(plugins.resolve("fleet-plugin.sh"),
				"echo \"$KUBERNETES_EXEC_INFO\" >> \"$PLUGIN_DIR/runs\"", "cat \"$PLUGIN_DIR/two.json\"");
		Path vaultPlugin = script(plugins.resolve("vault-plugin.sh"), "echo \"vault sealed, no credential for $1\" >&2",
				"exit 3");
		AccessProviders accessProviders = AccessProviders
			.of(Map.of("fleet-plugin",
					new ExecPlugin(fleetPlugin.toString(), List.of(), Map.of("PLUGIN_DIR", plugins.toString()),
							ExecPlugin.V1, true),
					"vault", ExecPlugin.of(vaultPlugin.toString(), "three")))
			.withClock(clock);
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		Logger logger = (Logger) LoggerFactory.getLogger(ClusterProfileProvider.class);
		logger.addAppender(logs);
		logs.start();
		// the profiles are there before the manager starts: the first list engages them
		accessProfile(ns, "plugin-two", "two", "fleet-plugin");
		accessProfile(ns, "plugin-three", "three", "vault");
		ControllerManager manager = ControllerManager.builder(this.client)
			.controller(FleetIntegrationTests.widgets(ns))
			.clusterProvider(new ClusterProfileProvider(this.client, ns, accessProviders))
			.build();
		manager.start();
		try {
			await().atMost(TIMEOUT).untilAsserted(() -> {
				assertThat(status("two", ns, "bolt")).isEqualTo(new Widget.Status("plugin-two"));
				assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage)
					.anySatisfy((message) -> assertThat(message).startsWith("Cluster 'plugin-three' is not engaged")
						.contains("'" + vaultPlugin
								+ "' of access provider 'vault' for cluster 'plugin-three' exited with 3: "
								+ "vault sealed, no credential for three"));
			});
			assertThat(manager.clusters()).extracting(ClusterStatus::name).containsExactly("plugin-two");
			assertThat(status("three", ns, "bolt")).isNull();
			List<String> runs = Files.readAllLines(plugins.resolve("runs"));
			assertThat(runs).hasSize(1);
			assertThat(runs.get(0)).contains("\"server\":\"" + servers.server("two").url())
				.contains("\"config\":{\"audience\":\"fleet-two\"}")
				.contains("\"interactive\":false");
			assertThat(usersOn("two", "bolt")).containsOnly("fleet-first");

			// the credential expires: the next request runs the plugin again, and the
			// connections opened after it present what it printed
			Files.writeString(plugins.resolve("two.json"),
					execCredential(identity("two", "second"), clock.instant().plusSeconds(7200)));
			clock.set(clock.instant().plusSeconds(3600));
			FleetServers.widgets(servers.client("two")).create(Widget.named(ns, "nut")).throwsApiException();
			await().atMost(TIMEOUT)
				.untilAsserted(() -> assertThat(status("two", ns, "nut")).isEqualTo(new Widget.Status("plugin-two")));
			assertThat(Files.readAllLines(plugins.resolve("runs"))).hasSize(2);
			FleetServers.widgets(servers.client("two")).create(Widget.named(ns, "washer")).throwsApiException();
			await().atMost(TIMEOUT)
				.untilAsserted(
						() -> assertThat(status("two", ns, "washer")).isEqualTo(new Widget.Status("plugin-two")));
			assertThat(usersOn("two", "washer")).containsOnly("fleet-second");
			assertThat(Files.readAllLines(plugins.resolve("runs"))).hasSize(2);

			// the failing plugin is tried again, and its cluster engaged once it gives a
			// credential; the other cluster was never disturbed
			script(vaultPlugin, "cat \"" + plugins.resolve("three.json") + "\"");
			await().atMost(TIMEOUT).untilAsserted(() -> {
				assertThat(status("three", ns, "bolt")).isEqualTo(new Widget.Status("plugin-three"));
				assertThat(manager.clusters()).extracting(ClusterStatus::name)
					.containsExactly("plugin-three", "plugin-two");
			});
			assertThat(Files.readAllLines(plugins.resolve("runs"))).hasSize(2);
		}
		finally {
			manager.stop();
			logger.detachAppender(logs);
		}
	}

	// written aside and moved in place, so that a run never sees half a script
	private static Path script(Path file, String... lines) throws Exception {
		Path written = Files.writeString(file.resolveSibling(file.getFileName() + ".new"),
				"#!/bin/sh\n" + String.join("\n", lines) + "\n");
		Files.setPosixFilePermissions(written, PosixFilePermissions.fromString("rwx------"));
		return Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
	}

	// what a plugin prints: a client certificate and key the member's CA signed, for a
	// user the member lets do anything
	private static String execCredential(Map<String, String> identity, Instant expiry) {
		JsonObject status = new JsonObject();
		status.addProperty("clientCertificateData", identity.get("certificate"));
		status.addProperty("clientKeyData", identity.get("key"));
		if (expiry != null) {
			status.addProperty("expirationTimestamp", DateTimeFormatter.ISO_INSTANT.format(expiry));
		}
		JsonObject credential = new JsonObject();
		credential.addProperty("apiVersion", ExecPlugin.V1);
		credential.addProperty("kind", "ExecCredential");
		credential.add("status", status);
		return credential.toString();
	}

	private static Map<String, String> identity(String member, String name) {
		KubeConfig kubeconfig = KubeConfig
			.loadKubeConfig(new StringReader(servers.server(member).kubeconfig("fleet-" + name, "system:masters")));
		Base64.Decoder base64 = Base64.getDecoder();
		return Map.of("certificate",
				new String(base64.decode(kubeconfig.getClientCertificateData()), StandardCharsets.UTF_8), "key",
				new String(base64.decode(kubeconfig.getClientKeyData()), StandardCharsets.UTF_8));
	}

	// who wrote the Widget's status on the member
	private static List<String> usersOn(String member, String widget) {
		return servers.server(member)
			.auditEvents()
			.stream()
			.filter((event) -> "widgets".equals(event.resource()) && "status".equals(event.subresource())
					&& widget.equals(event.name()) && !"get".equals(event.verb()))
			.map((event) -> event.user())
			.toList();
	}

	@SuppressWarnings("unchecked")
	private void accessProfile(String ns, String name, String member, String provider) throws Exception {
		ClusterProfile profile = new ClusterProfile();
		profile.setMetadata(new V1ObjectMeta().namespace(ns).name(name));
		profile.setSpec(new ClusterProfile.Spec(new ClusterProfile.ClusterManager("fleet-tests"), name));
		profiles(this.client).create(profile).throwsApiException();
		KubeConfig kubeconfig;
		try (Reader reader = Files.newBufferedReader(servers.server(member).kubeconfig(), StandardCharsets.UTF_8)) {
			kubeconfig = KubeConfig.loadKubeConfig(reader);
		}
		CustomObjectsApi api = new CustomObjectsApi(this.client);
		Map<String, Object> object = (Map<String, Object>) api
			.getNamespacedCustomObject(ClusterProfile.GROUP, "v1alpha1", ns, "clusterprofiles", name)
			.execute();
		object.put("status",
				Map.of("conditions", List.of(condition("True")), "accessProviders",
						List.of(Map.of("name", provider, "cluster",
								Map.of("server", servers.server(member).url().toString(), "certificate-authority-data",
										kubeconfig.getCertificateAuthorityData(), "extensions",
										List.of(Map.of("name", AccessProviders.EXEC_EXTENSION, "extension",
												Map.of("audience", "fleet-" + member))))))));
		api.replaceNamespacedCustomObjectStatus(ClusterProfile.GROUP, "v1alpha1", ns, "clusterprofiles", name, object)
			.execute();
	}

	private static Map<String, Object> condition(String healthy) {
		return Map.of("type", ClusterProfile.CONTROL_PLANE_HEALTHY, "status", healthy, "reason", "Probed", "message",
				"the test says so", "lastTransitionTime",
				DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS)));
	}

	/**
	 * The wall clock the access providers read expiry times by, moved by the test.
	 */
	private static final class MovableClock extends Clock {

		private final AtomicReference<Instant> now;

		MovableClock(Instant now) {
			this.now = new AtomicReference<>(now);
		}

		void set(Instant now) {
			this.now.set(now);
		}

		@Override
		public Instant instant() {
			return this.now.get();
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
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
		profile.put("status", Map.of("conditions", List.of(condition(healthy))));
		api.replaceNamespacedCustomObjectStatus(ClusterProfile.GROUP, "v1alpha1", ns, "clusterprofiles", name, profile)
			.execute();
	}

	private static Widget.Status status(String member, String ns) throws ApiException {
		return status(member, ns, "gear");
	}

	private static Widget.Status status(String member, String ns, String name) throws ApiException {
		return FleetServers.widgets(servers.client(member)).get(ns, name).throwsApiException().getObject().getStatus();
	}

	private static GenericKubernetesApi<ClusterProfile, CustomResourceList<ClusterProfile>> profiles(ApiClient client) {
		return CustomResourceList.api(ClusterProfile.class, client);
	}

}
