package dev.kubereconciler.test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link KubernetesTestServer} run from wrapper scripts that record each launch
 * (its process id and arguments) before they {@code exec} the real binaries, so the tests
 * can tell which binaries ran, with which flags, and that they are gone afterwards.
 */
@KubernetesTest
class KubernetesTestServerTests {

	@TempDir
	static Path wrappers;

	static KubernetesTestServer server;

	@BeforeAll
	static void startFromWrappers(KubernetesTestServer shared) throws IOException {
		KubernetesTestAssets real = shared.assets();
		Path folder = Files.createDirectories(wrappers.resolve("assets"));
		wrap(folder.resolve("etcd"), real.etcd());
		wrap(folder.resolve("kube-apiserver"), real.kubeApiServer());
		// through discovery, to show that KUBEBUILDER_ASSETS decides what is launched
		server = KubernetesTestServer.start(KubernetesTestAssets
			.discover(Map.of("KUBEBUILDER_ASSETS", folder.toString()), wrappers.resolve("no-home")));
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void launchesTheBinariesInKubebuilderAssetsWithEnvtestFlags() throws IOException, ApiException {
		assertThat(server.assets().etcd()).isEqualTo(wrappers.resolve("assets/etcd"));
		assertThat(launches("etcd")).first()
			.asString()
			.contains("--listen-client-urls=" + server.etcdUrl())
			.contains("--initial-cluster=default=http://127.0.0.1:");
		assertThat(launches("kube-apiserver")).first()
			.asString()
			.contains("--secure-port=" + server.url().getPort(), "--etcd-servers=" + server.etcdUrl(),
					"--advertise-address=127.0.0.1", "--bind-address=127.0.0.1", "--cert-dir=", "--client-ca-file=",
					"--service-account-issuer=https://kubernetes.default.svc", "--service-account-key-file=",
					"--service-account-signing-key-file=", "--service-cluster-ip-range=10.0.0.0/24",
					"--allow-privileged=true", "--authorization-mode=RBAC",
					"--disable-admission-plugins=ServiceAccount");
		assertThat(new CoreV1Api(server.apiClient()).listNamespace().execute().getItems())
			.extracting((namespace) -> namespace.getMetadata().getName())
			.contains("default");
	}

	@Test
	void kubeconfigAndUrlNameTheServer() throws IOException {
		assertThat(server.url()).hasScheme("https").hasHost("127.0.0.1");
		assertThat(Files.readString(server.kubeconfig())).contains("server: " + server.url())
			.contains("certificate-authority-data: ")
			.contains("client-certificate-data: ")
			.contains("client-key-data: ");
		assertThat(server.apiClient().getBasePath()).isEqualTo(server.url().toString());
		assertThat(server.apiClient().getReadTimeout()).isZero();
	}

	@Test
	void auditLogNamesTheUserTheAddressTheObjectAndTheAnswerOfEveryRequest() {
		ApiClient stranger = server.apiClient("system:serviceaccount:audit:stranger");
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> new CoreV1Api(stranger).readNamespacedConfigMap("settings", "default").execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(server.auditEvents())
				.filteredOn((event) -> event.user().equals("system:serviceaccount:audit:stranger"))
				.singleElement()
				.satisfies((event) -> {
					assertThat(event.forbidden()).isTrue();
					assertThat(event.sourceIps()).contains("127.0.0.1");
					assertThat(event)
						.extracting(AuditEvent::stage, AuditEvent::verb, AuditEvent::group, AuditEvent::resource,
								AuditEvent::namespace, AuditEvent::name)
						.containsExactly("ResponseComplete", "get", "", "configmaps", "default", "settings");
				}));
	}

	@Test
	void restartsOnlyTheApiServerOnTheSamePortWhileEtcdKeepsTheData() throws ApiException {
		ApiClient client = server.apiClient();
		CoreV1Api core = new CoreV1Api(client);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("restart"))).execute();
		core.createNamespacedConfigMap("restart", new V1ConfigMap().metadata(new V1ObjectMeta().name("kept")))
			.execute();
		List<String> etcdBefore = launches("etcd");
		int apiServerLaunches = launches("kube-apiserver").size();
		URI url = server.url();

		server.stopApiServer();
		assertThat(server.isApiServerRunning()).isFalse();
		assertThat(processAlive(launches("kube-apiserver").get(apiServerLaunches - 1))).isFalse();
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> core.listNamespace().execute());

		server.startApiServer();
		assertThat(server.isApiServerRunning()).isTrue();
		assertThat(server.url()).isEqualTo(url);
		assertThat(launches("kube-apiserver")).hasSize(apiServerLaunches + 1);
		assertThat(launches("etcd")).isEqualTo(etcdBefore);
		assertThat(processAlive(etcdBefore.get(0))).isTrue();
		// the client made before the restart reconnects by itself
		assertThat(core.readNamespacedConfigMap("kept", "restart").execute().getMetadata().getName()).isEqualTo("kept");
	}

	@Test
	void killApiServerEndsItAtOnceAndStartBringsItBack() throws ApiException {
		CoreV1Api core = new CoreV1Api(server.apiClient());
		List<String> before = launches("kube-apiserver");

		server.killApiServer();
		assertThat(server.isApiServerRunning()).isFalse();
		assertThat(processAlive(before.get(before.size() - 1))).isFalse();
		assertThat(server.directory().resolve("kube-apiserver.log")).content().doesNotContain("panic");

		server.startApiServer();
		assertThat(launches("kube-apiserver")).hasSize(before.size() + 1);
		assertThat(core.readNamespace("default").execute().getMetadata().getName()).isEqualTo("default");
	}

	@Test
	void closeStopsBothProcessesFreesThePortsAndDeletesTheFolder() throws IOException {
		Path folder = Files.createDirectories(wrappers.resolve("close"));
		wrap(folder.resolve("etcd"), server.assets().etcd());
		wrap(folder.resolve("kube-apiserver"), server.assets().kubeApiServer());
		KubernetesTestServer closing = KubernetesTestServer.start(KubernetesTestAssets.fromFolder(folder));
		List<String> launches = List.of(launches(folder, "etcd").get(0), launches(folder, "kube-apiserver").get(0));
		assertThat(launches).allMatch(KubernetesTestServerTests::processAlive);

		closing.close();

		assertThat(launches).noneMatch(KubernetesTestServerTests::processAlive);
		assertThat(closing.directory()).doesNotExist();
		for (int port : new int[] { closing.url().getPort(), closing.etcdUrl().getPort() }) {
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
				assertThat(socket.getLocalPort()).isEqualTo(port);
			}
		}
	}

	@Test
	void failedStartQuotesTheLogAndLeavesNoProcessBehind() throws IOException {
		Path folder = Files.createDirectories(wrappers.resolve("failing"));
		wrap(folder.resolve("etcd"), server.assets().etcd());
		script(folder.resolve("kube-apiserver"), """
				#!/bin/sh
				echo "Error: this kube-apiserver refuses to start"
				exit 3
				""");
		assertThatIllegalStateException()
			.isThrownBy(() -> KubernetesTestServer.start(KubernetesTestAssets.fromFolder(folder)))
			.withMessageContaining("kube-apiserver exited with code 3 before it was ready")
			.withMessageContaining("Error: this kube-apiserver refuses to start");
		assertThat(processAlive(launches(folder, "etcd").get(0))).isFalse();
	}

	private static List<String> launches(String binary) {
		return launches(server.assets().etcd().getParent(), binary);
	}

	private static List<String> launches(Path folder, String binary) {
		try {
			return Files.readAllLines(folder.resolve(binary + ".launches"));
		}
		catch (IOException ex) {
			return List.of();
		}
	}

	// a launch line starts with the process id; exec keeps it for the real binary
	private static boolean processAlive(String launch) {
		long pid = Long.parseLong(launch.substring(0, launch.indexOf(' ')));
		return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
	}

	private static void wrap(Path wrapper, Path real) throws IOException {
		script(wrapper, """
				#!/bin/sh
				echo "$$ $*" >> "$0.launches"
				exec '%s' "$@"
				""".formatted(real));
	}

	private static void script(Path file, String content) throws IOException {
		Files.writeString(file, content);
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
	}

}
