package dev.kubereconciler.test.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The pod runner against the real API server, with a plain main class as the image.
 */
@KubernetesTest
@TestInstance(Lifecycle.PER_CLASS)
class DeployedApplicationTests {

	private static final Duration PROBE_PERIOD = Duration.ofMillis(100);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private DeployedApplication application;

	@BeforeAll
	void deploy(ApiClient client, KubernetesTestServer server, TestNamespace namespace) throws ApiException {
		String ns = namespace.name();
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedServiceAccount(ns, new V1ServiceAccount().metadata(new V1ObjectMeta().name("probed")))
			.execute();
		api.createNamespacedSecret(ns, secret("probed-credentials", Map.of("password", "s3cret"))).execute();
		api.createNamespacedSecret(ns, secret("probed-tls", Map.of("tls.crt", "first certificate"))).execute();
		api.createNamespacedConfigMap(ns,
				new V1ConfigMap().metadata(new V1ObjectMeta().name("probed-settings")).data(Map.of("color", "blue")))
			.execute();
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(client);
		rbac.createNamespacedRole(ns,
				new V1Role().metadata(new V1ObjectMeta().name("probed"))
					.rules(List.of(new V1PolicyRule().apiGroups(List.of(""))
						.resources(List.of("configmaps"))
						.verbs(List.of("get", "list", "watch")))))
			.execute();
		rbac.createNamespacedRoleBinding(ns,
				new V1RoleBinding().metadata(new V1ObjectMeta().name("probed"))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("probed"))
					.subjects(List.of(new RbacV1Subject().kind("ServiceAccount").name("probed").namespace(ns))))
			.execute();
		this.application = DeployedApplication.builder(server, namespace)
			.manifests(manifests())
			.mainClass(ProbedApplication.class)
			.probePeriod(PROBE_PERIOD)
			.start();
	}

	@AfterAll
	void undeploy() {
		if (this.application != null) {
			this.application.close();
		}
	}

	@Test
	void replicasRunOnLoopbackAddressesOfTheirOwnAndAreReady() {
		List<Replica> replicas = this.application.replicas();
		assertThat(replicas).hasSize(2).allMatch(Replica::isReady);
		assertThat(replicas.get(0).podIp()).isNotEqualTo(replicas.get(1).podIp()).startsWith("127.");
		for (Replica replica : replicas) {
			assertThat(get(replica, "/env?POD_IP")).isEqualTo(replica.podIp());
			assertThat(get(replica, "/env?HOSTNAME")).isEqualTo(replica.podName());
			assertThat(get(replica, "/env?POD_NAME")).isEqualTo(replica.podName()).startsWith("probed-");
		}
	}

	@Test
	void environmentComesFromSecretsConfigMapsAndThePod(TestNamespace namespace) {
		Replica replica = this.application.replicas().get(0);
		assertThat(get(replica, "/env?PASSWORD")).isEqualTo("s3cret");
		assertThat(get(replica, "/env?COLOR")).isEqualTo("blue");
		assertThat(get(replica, "/env?GREETING")).isEqualTo("hello blue $(UNDEFINED)");
		assertThat(get(replica, "/env?POD_NAMESPACE")).isEqualTo(namespace.name());
		assertThat(get(replica, "/env?APP_NAME")).isEqualTo("probed");
		assertThat(get(replica, "/env?KUBERNETES_SERVICE_HOST")).isEqualTo("127.0.0.1");
	}

	@Test
	void commandKeepsItsJvmOptionsAndJavaToolOptionsReachTheJvm() {
		Replica replica = this.application.replicas().get(0);
		assertThat(get(replica, "/property?probed.command")).isEqualTo("kept");
		assertThat(get(replica, "/property?probed.tool")).isEqualTo("on");
		Path certificates = Path.of(URI.create(get(replica, "/env?CERTIFICATE")));
		assertThat(get(replica, "/args")).isEqualTo("--port=8080 --certificate=" + certificates);
	}

	@Test
	void mountedSecretIsSwappedThroughItsDataLink(ApiClient client, TestNamespace namespace)
			throws ApiException, IOException {
		Replica replica = this.application.replicas().get(1);
		assertThat(get(replica, "/file?CERTIFICATE")).isEqualTo("first certificate");
		Path file = Path.of(URI.create(get(replica, "/env?CERTIFICATE")));
		assertThat(file.toString()).doesNotStartWith("/etc/");
		assertThat(Files.readSymbolicLink(file)).isEqualTo(Path.of("..data", "tls.crt"));
		Path before = file.getParent().resolve(Files.readSymbolicLink(file.getParent().resolve("..data")));
		new CoreV1Api(client)
			.replaceNamespacedSecret("probed-tls", namespace.name(),
					secret("probed-tls", Map.of("tls.crt", "renewed certificate")))
			.execute();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(get(replica, "/file?CERTIFICATE")).isEqualTo("renewed certificate"));
		assertThat(file.getParent().resolve(Files.readSymbolicLink(file.getParent().resolve("..data"))))
			.isNotEqualTo(before);
		assertThat(before).doesNotExist();
	}

	@Test
	void requestsAreJudgedByRbacAsTheServiceAccount() {
		Replica replica = this.application.replicas().get(0);
		assertThat(get(replica, "/api?configmaps")).isEqualTo("200");
		assertThat(get(replica, "/api?secrets")).isEqualTo("403");
	}

	@Test
	void readinessFollowsTheReadinessProbe() {
		Replica replica = this.application.replicas().get(1);
		get(replica, "/set?ready=false");
		await().atMost(Duration.ofSeconds(5)).until(() -> !replica.isReady());
		assertThat(this.application.readyReplicas()).containsExactly(this.application.replicas().get(0));
		get(replica, "/set?ready=true");
		await().atMost(Duration.ofSeconds(5)).until(replica::isReady);
	}

	@Test
	void stopSendsSigtermAndWaitsForTheDrain(KubernetesTestServer server, TestNamespace namespace) {
		try (DeployedApplication single = single(server, namespace)) {
			Termination termination = single.replicas().get(0).stop();
			assertThat(termination.killed()).isFalse();
			assertThat(termination.exitCode()).isEqualTo(143);
			assertThat(termination.drained()).isLessThan(Duration.ofSeconds(2));
			assertThat(single.replicas().get(0).logs()).contains("SIGTERM received, draining");
		}
	}

	@Test
	void stopKillsWithSigkillAfterTheGracePeriod(KubernetesTestServer server, TestNamespace namespace) {
		try (DeployedApplication single = single(server, namespace)) {
			Replica replica = single.replicas().get(0);
			get(replica, "/set?hang-on-term=true");
			Termination termination = replica.stop();
			assertThat(termination.killed()).isTrue();
			assertThat(termination.exitCode()).isEqualTo(137);
			// terminationGracePeriodSeconds: 2
			assertThat(termination.drained()).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(5));
		}
	}

	@Test
	void failedLivenessProbeRestartsTheProcess(KubernetesTestServer server, TestNamespace namespace) {
		try (DeployedApplication single = single(server, namespace)) {
			Replica replica = single.replicas().get(0);
			long pid = replica.pid();
			get(replica, "/set?live=false");
			await().atMost(Duration.ofSeconds(30)).until(() -> replica.restartCount() == 1 && replica.isReady());
			assertThat(replica.pid()).isNotEqualTo(pid);
			assertThat(replica.logs()).contains("restarting " + replica.podName() + ": liveness probe");
		}
	}

	@Test
	void failedStartReportsTheEndOfTheLog(KubernetesTestServer server, TestNamespace namespace) {
		DeployedApplication.Builder builder = DeployedApplication.builder(server, namespace)
			.manifests(manifests())
			.mainClass(FailingApplication.class)
			.replicas(1);
		assertThatIllegalStateException().isThrownBy(builder::start)
			.withMessageContaining("exited with code 1 before it was ready")
			.withMessageContaining("No greeting configured: set GREETING_TEXT");
	}

	private static DeployedApplication single(KubernetesTestServer server, TestNamespace namespace) {
		return DeployedApplication.builder(server, namespace)
			.manifests(manifests())
			.mainClass(ProbedApplication.class)
			.probePeriod(PROBE_PERIOD)
			.replicas(1)
			.start();
	}

	private String get(Replica replica, String path) {
		try {
			HttpResponse<String> response = this.http.send(
					HttpRequest.newBuilder(URI.create("http://" + replica.podIp() + ":8080" + path)).build(),
					HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
			return response.body();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static Path manifests() {
		try {
			return Path.of(DeployedApplicationTests.class.getResource("/deploy/probed").toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static V1Secret secret(String name, Map<String, String> data) {
		return new V1Secret().metadata(new V1ObjectMeta().name(name)).stringData(data);
	}

}
