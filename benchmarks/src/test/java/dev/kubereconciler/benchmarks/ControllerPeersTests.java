package dev.kubereconciler.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A smoke pass of the whole-controller benchmark on the real test API server, 50 objects
 * per workload: every peer starts, reconciles every ConfigMap and writes every one; never
 * its speed.
 */
@KubernetesTest
class ControllerPeersTests {

	KubernetesTestServer server;

	@Test
	void everyPeerCompletesEveryWorkload() throws Exception {
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		PrintStream original = System.out;
		ControllerPeers peers = new ControllerPeers(this.server.kubeconfig());
		try {
			System.setOut(new PrintStream(output, true, StandardCharsets.UTF_8));
			// two rounds, so that the medians are printed
			peers.run(new ControllerPeers.Settings(50, 50, 50, 1, 2), 0);
		}
		finally {
			System.setOut(original);
			peers.cleanUp();
		}
		String report = output.toString(StandardCharsets.UTF_8);
		original.print(report);
		for (String peer : new String[] { "kube-reconciler", "Java Operator SDK", "client-java DefaultController",
				"bare client", "bare client, watch cache" }) {
			assertThat(report).containsPattern(peer + " +cold start of 50: synced")
				.containsPattern(peer + " +write-through of 50: .* 50 patches, 0 API errors")
				.containsPattern(peer + " +steady 50/s for 1 s: reconciled 45 of 45")
				.containsPattern(peer + " +cold start, last first reconcile, median of 2 rounds")
				.containsPattern(peer + " +write-through, median of 2 rounds")
				.containsPattern(peer + " +steady p99, median of 2 rounds");
		}
	}

	@Test
	void memoryOfEveryPeerIsMeasuredWithTheControllerRunning() throws Exception {
		ControllerPeers peers = new ControllerPeers(this.server.kubeconfig());
		try {
			String namespace = peers.populated("memory", 50);
			for (String name : new String[] { "ours", "ours-no-compact", "ours-keep-managed-fields", "josdk",
					"client-java" }) {
				PeerMemory.Heap heap = PeerMemory.measure(PeerMemory.peer(name, this.server.kubeconfig()), namespace,
						50);
				assertThat(heap.live()).isPositive();
				assertThat(heap.used()).isPositive();
			}
		}
		finally {
			peers.cleanUp();
		}
	}

}
