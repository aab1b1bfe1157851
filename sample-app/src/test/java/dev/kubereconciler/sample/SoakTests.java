package dev.kubereconciler.sample;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.kubereconciler.test.KubernetesTestAssets;
import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak at its CI size: three leader-elected replicas of the sample under churn for 2
 * minutes, through every kind of fault once (a latency spike, resets of every connection
 * and of the watches, a partition of the leader, an etcd compaction under a held watch, a
 * replica killed and restarted, an API server restart); every widget ends as its spec
 * says, no key is reconciled by two replicas at once, and every fault is recovered from
 * within its bound. {@code benchmarks/soak.sh --minutes 60} runs the same for an hour
 * ({@code -Dkube-reconciler.soak.minutes}), and then also asks that heap after GC,
 * threads and open files stay flat.
 */
class SoakTests {

	@TempDir
	Path work;

	@Test
	void threeReplicasUnderChurnAndEveryFaultEndRightWithoutADoubleReconcileAndRecoverInTime() throws Exception {
		SoakSettings settings = SoakSettings.fromSystemProperties();
		try (KubernetesTestServer server = KubernetesTestServer.start(KubernetesTestAssets.discover())) {
			List<String> breaches = new Soak(settings, server).run(this.work);
			assertThat(breaches).as("acceptance breaches; see %s", settings.output().resolve("report.md")).isEmpty();
		}
	}

}
