package dev.kubereconciler.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A smoke pass of the 100,000-object benchmark at 300 objects on the real test API
 * server: every peer's JVM starts, reconciles every ConfigMap and prints its figures, and
 * the summary is printed; never a speed or a memory figure.
 */
@KubernetesTest
class ScalePeersTests {

	KubernetesTestServer server;

	@Test
	void everyPeerReconcilesEveryObjectInAJvmOfItsOwnAndTheFiguresArePrinted() throws Exception {
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		ScalePeers.Settings settings = new ScalePeers.Settings(300, 1, 20, ScalePeers.PEERS,
				"-XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xmx512m -Xmn32m");
		boolean complete = new ScalePeers(this.server.kubeconfig(),
				new PrintStream(output, true, StandardCharsets.UTF_8))
			.run(settings);
		String report = output.toString(StandardCharsets.UTF_8);
		System.out.print(report);
		assertThat(complete).isTrue();
		for (String peer : new String[] { "kube-reconciler", "kube-reconciler, unpaged list", "Java Operator SDK",
				"client-java DefaultController", "bare client" }) {
			assertThat(report).containsPattern("(?m)^" + peer + " +300 ConfigMaps: synced .* reconciled 300 of 300;");
		}
		assertThat(report).containsPattern("peak in use [-\\d.]+ MiB .* peak live [-\\d.]+ MiB");
		for (String peer : ScalePeers.PEERS) {
			assertThat(report).containsPattern("(?m)^" + ScaleSummary.label(peer) + " +\\d+ ms +\\d+ ms +[-\\d.]+ MiB");
		}
		assertThat(report).contains("the whole list of scale-300 as one JSON answer")
			.containsPattern(
					"target: live bytes per cached object <= 0.6x client-java's default: \\d+ B against \\d+ B")
			.containsPattern("paging: our peak in use [-\\d.]+ MiB unpaged")
			.contains("target: the initial list does not hold the JSON of every object at once: paging saves");
	}

}
