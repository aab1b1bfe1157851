package dev.kubereconciler.sample;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTestAssets;
import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The sample's generated manifests ({@code target/kubernetes}) as an operator's users
 * deploy them: with kubectl's client-side apply, twice, against an API server of their
 * own. The second apply must find nothing to change: a manifest that carries what the
 * server drops or defaults (an empty map, a webhook rule without its {@code scope}) is
 * reported {@code configured} on every run, which hides real drift in a GitOps diff. The
 * monitoring folder's dashboard ConfigMap is applied with them. The cert-manager objects
 * and the {@code PrometheusRule} are left out, since the test server serves neither
 * cert-manager's API nor the Prometheus Operator's.
 */
class KubectlApplyTests {

	private static final Path MANIFESTS = Path.of("target", "kubernetes");

	@Test
	void applyingTheGeneratedManifestsAgainChangesNothing() throws Exception {
		Path kubectl = kubectl();
		List<Path> manifests = manifests();
		// a server of its own: the webhook configurations would refuse the shared
		// server's widget writes, as their Service cannot be reached from here
		try (KubernetesTestServer server = KubernetesTestServer.start(KubernetesTestAssets.discover())) {
			String first = apply(kubectl, server, manifests);
			assertThat(first).contains("deployment.apps/kube-reconciler-sample created",
					"configmap/kube-reconciler-sample-dashboard created");
			String second = apply(kubectl, server, manifests);
			assertThat(second.lines().toList()).as("the second apply of%n%s", first)
				.isNotEmpty()
				.allSatisfy((line) -> assertThat(line).endsWith(" unchanged"));
		}
	}

	private static List<Path> manifests() throws IOException {
		List<Path> manifests = new ArrayList<>();
		for (Path folder : List.of(MANIFESTS, MANIFESTS.resolve("monitoring"))) {
			for (String line : Files.readAllLines(folder.resolve("kustomization.yaml"))) {
				if (line.startsWith("- ")) {
					Path manifest = folder.resolve(line.substring(2).trim());
					String yaml = Files.readString(manifest);
					if (!yaml.contains("apiVersion: cert-manager.io/")
							&& !yaml.contains("apiVersion: monitoring.coreos.com/")) {
						manifests.add(manifest);
					}
				}
			}
		}
		assertThat(manifests).as("the manifests of %s", MANIFESTS.resolve("kustomization.yaml")).hasSizeGreaterThan(4);
		return manifests;
	}

	private static String apply(Path kubectl, KubernetesTestServer server, List<Path> manifests)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(kubectl.toString(), "apply"));
		manifests.forEach((manifest) -> command.addAll(List.of("-f", manifest.toString())));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().put("KUBECONFIG", server.kubeconfig().toString());
		Process process = builder.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			fail("kubectl apply failed:%n%s", output);
		}
		return output;
	}

	static Path kubectl() {
		Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.filter((folder) -> !folder.isEmpty())
			.map((folder) -> Path.of(folder, "kubectl"))
			.filter(Files::isExecutable)
			.findFirst();
		if (found.isEmpty()) {
			String fix = "No kubectl on PATH; './dev setup' installs one (Debian's kubernetes-client)";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				fail(fix);
			}
			Assumptions.abort(fix);
		}
		return found.get();
	}

}
