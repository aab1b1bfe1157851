package dev.kubereconciler.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.context.ConfigurableApplicationContext;

import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.reliability.ShardJournal.Fact;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 5: two application instances against one API server with leader election. Only
 * the leader reconciles. When the leader's process is killed (no chance to give up its
 * lease), the other takes over once the lease expires, and no object is reconciled by
 * both at once.
 */
@KubernetesTest
class LeaderFailoverTests {

	static final Duration LEASE_DURATION = Duration.ofSeconds(4);

	static final Duration RETRY_PERIOD = Duration.ofMillis(500);

	// client-java counts a lease's expiry from when the follower saw its last renewal,
	// which it polls every retry period with jitter; a busy CI machine adds to that
	private static final Duration TAKEOVER_LIMIT = LEASE_DURATION.plus(RETRY_PERIOD.multipliedBy(3)).plusSeconds(3);

	private static final int OBJECTS = Reliability.scaled(20);

	@TempDir
	Path folder;

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private Process first;

	private ConfigurableApplicationContext second;

	@AfterEach
	void stop() {
		if (this.first != null) {
			this.first.destroyForcibly();
		}
		if (this.second != null) {
			this.second.close();
		}
	}

	@Test
	void followerTakesOverFromAKilledLeaderAndNoObjectIsReconciledByBoth() throws Exception {
		ShardJournal journal = new ShardJournal(this.folder.resolve("journal"));
		this.first = ReplicaJvm.launch(LeaderCandidate.class, this.folder.resolve("first.log"), List
			.of(this.server.kubeconfig().toString(), this.namespace.name(), journal.file().toString(), "first"));
		await().atMost(Duration.ofSeconds(60)).until(() -> journal.facts("first", "leading").size() == 1);
		this.second = LeaderCandidate.start(this.server.kubeconfig(), this.namespace.name(), journal.file(), "second");
		CoreV1Api core = new CoreV1Api(this.client);
		for (int i = 0; i < OBJECTS; i++) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("before-" + i)))
				.execute();
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> journal.facts("first", "end").size() >= OBJECTS);
		assertThat(this.second.getBean(ManagedControllers.class).getManager().isLeader()).isFalse();
		assertThat(journal.facts("second", "start")).isEmpty();
		long killed = System.nanoTime();
		this.first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		await().atMost(TAKEOVER_LIMIT).until(() -> journal.facts("second", "leading").size() == 1);
		long tookOver = journal.facts("second", "leading").get(0).nanos();
		for (int i = 0; i < OBJECTS; i++) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("after-" + i)))
				.execute();
		}
		await().atMost(Duration.ofSeconds(30))
			.until(() -> journal.facts("second", "end")
				.stream()
				.filter((fact) -> fact.name().startsWith("after-"))
				.count() >= OBJECTS);
		List<Fact> firstFacts = journal.facts("first", null);
		List<Fact> secondStarts = journal.facts("second", "start");
		long firstLast = firstFacts.stream().mapToLong(Fact::nanos).max().orElseThrow();
		// the killed leader's last reconcile ended before the new leader's first
		// one began
		assertThat(secondStarts).allSatisfy((fact) -> assertThat(fact.nanos()).isGreaterThan(firstLast));
		assertThat(journal.facts("first", "start")).noneMatch((fact) -> fact.name().startsWith("after-"));
		Duration takeover = Duration.ofNanos(tookOver - killed);
		// the follower respects the lease it last saw renewed, and takes it once
		// it expires
		assertThat(takeover).isBetween(LEASE_DURATION.minus(RETRY_PERIOD.multipliedBy(2)), TAKEOVER_LIMIT);
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("lease duration; renew deadline; retry period", "4 s; 3 s; 0.5 s");
		figures.put("reconciles by the leader; by the follower while the leader lived",
				journal.facts("first", "end").size() + "; "
						+ secondStarts.stream().filter((fact) -> fact.nanos() < killed).count());
		figures.put("takeover after SIGKILL of the leader", String.format("%.2f s", takeover.toNanos() / 1e9));
		figures.put("follower's first reconcile after the leader's last one", String.format("%+.2f s",
				(secondStarts.stream().mapToLong(Fact::nanos).min().orElseThrow() - firstLast) / 1e9));
		Reliability.report("5-leader-failover", "5. Leader failover", figures);
	}

}
