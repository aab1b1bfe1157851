package dev.kubereconciler.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import dev.kubereconciler.reliability.ShardJournal.Fact;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 9c: the manager bucket with {@code scope: cluster} at 30 qps (burst 30) over
 * three replicas, with 3,000 keys behind the gate. The cluster-wide rate of reconcile
 * starts is 30/s ± 5% over 60 s after the burst; after one replica is killed and the
 * survivors have retuned to 15/s each, it is again 30/s ± 5% over 60 s.
 *
 * <p>
 * Opt-in ({@code -Dkube-reconciler.reliability.sharding=true}): its two 60 s windows take
 * over three minutes.
 */
@KubernetesTest
@EnabledIfSystemProperty(named = "kube-reconciler.reliability.sharding", matches = "true")
class ShardingClusterBucketTests {

	private static final int PARTITIONS = 32;

	private static final int OBJECTS = Reliability.scaled(3000);

	private static final double QPS = 30;

	private static final Duration WINDOW = Duration.ofSeconds(60);

	private static final Duration LIMIT = Duration.ofSeconds(90);

	private static final String INTRO = """
			`ShardingClusterBucketTests` (opt-in, `-Dkube-reconciler.reliability.sharding=true`) runs
			three replicas with `kube-reconciler.manager.rate-limiter.scope: cluster`, `qps: 30` and
			`burst: 30`, so each gets 10 qps and a burst of 10, and creates 3,000 ConfigMaps, far more
			than the gate lets through in the windows. The rate is the count of reconcile starts in
			the journal over a 60 s window, from 5 s after the first. Then a second round of updates
			keeps the queues full, one replica is killed (SIGKILL), and once the survivors have taken
			its partitions over (they retune to 15 qps and a burst of 15 in the same round) the rate
			is measured over another 60 s window, from 2 s after the takeover.
			""";

	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path folder;

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private ShardReplicas replicas;

	@AfterEach
	void stop() {
		if (this.replicas != null) {
			this.replicas.close();
		}
	}

	@Test
	void theClusterWideRateHoldsBeforeAndAfterAReplicaDies() throws Exception {
		long began = System.nanoTime();
		this.replicas = new ShardReplicas(this.server, this.namespace.name(), this.folder,
				List.of("--kube-reconciler.manager.rate-limiter.qps=" + QPS,
						"--kube-reconciler.manager.rate-limiter.burst=30",
						"--kube-reconciler.manager.rate-limiter.scope=cluster"));
		ShardJournal journal = this.replicas.journal();
		this.replicas.start("r1", "r2", "r3");
		await().atMost(LIMIT).until(() -> ShardJournal.balanced(journal.held(), Set.of("r1", "r2", "r3"), PARTITIONS));
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("objects; partitions; cluster qps; cluster burst; workers per replica",
				OBJECTS + "; " + PARTITIONS + "; 30; 30; 4");

		Thread creator = writer(OBJECTS, "v1", new ConcurrentHashMap<>());
		creator.start();
		await().atMost(LIMIT).until(() -> !journal.facts(null, "start").isEmpty());
		long first = journal.facts(null, "start").get(0).nanos();
		figures.put("reconciles started in the first second (the burst)",
				starts(journal, null, first, first + 1_000_000_000L));
		long from1 = first + Duration.ofSeconds(5).toNanos();
		long to1 = from1 + WINDOW.toNanos();
		awaitPast(to1);
		double rate1 = rate(journal, null, from1, to1);
		Map<String, String> byReplica = new TreeMap<>();
		for (String replica : List.of("r1", "r2", "r3")) {
			byReplica.put(replica, String.format("%.2f", rate(journal, replica, from1, to1)));
		}
		figures.put("3 replicas: reconciles per second over 60 s, from 5 s after the first", format(rate1));
		figures.put("3 replicas: by replica", byReplica);
		assertThat(journal.reconciledSince(null, 0)).as("the keys are still behind the gate").hasSizeLessThan(OBJECTS);
		creator.join();

		// a second round keeps every replica's queue full after the kill
		Map<String, Long> sent = new ConcurrentHashMap<>();
		Thread updater = writer(OBJECTS, "v2", sent);
		updater.start();
		long killedAt = System.nanoTime();
		this.replicas.kill("r3");
		Set<Integer> ofR3 = new HashSet<>();
		ShardJournal.holdings(journal.facts("r3", null), Map.of())
			.stream()
			.filter((holding) -> holding.to() == Long.MAX_VALUE)
			.forEach((holding) -> ofR3.add(holding.partition()));
		await().atMost(LIMIT).until(() -> {
			Map<String, Integer> held = journal.held();
			return held.getOrDefault("r1", 0) + held.getOrDefault("r2", 0) == PARTITIONS;
		});
		long takenOver = journal.facts(null, "acquire")
			.stream()
			.filter((fact) -> fact.nanos() > killedAt && ofR3.contains(Integer.parseInt(fact.name())))
			.mapToLong(Fact::nanos)
			.max()
			.orElseThrow();
		figures.put("SIGKILL of r3: until r1 and r2 held its " + ofR3.size() + " partitions",
				ShardJournal.seconds(takenOver - killedAt));
		figures.put("between the kill and the takeover: reconciles per second",
				format(rate(journal, null, killedAt, takenOver)));
		figures.put("reconciles started in the first second after the takeover",
				starts(journal, null, takenOver, takenOver + 1_000_000_000L));
		long from2 = takenOver + Duration.ofSeconds(2).toNanos();
		long to2 = from2 + WINDOW.toNanos();
		awaitPast(to2);
		double rate2 = rate(journal, null, from2, to2);
		figures.put("2 replicas: reconciles per second over 60 s, from 2 s after the takeover", format(rate2));
		figures.put("2 replicas: by replica", new TreeMap<>(
				Map.of("r1", format(rate(journal, "r1", from2, to2)), "r2", format(rate(journal, "r2", from2, to2)))));
		updater.join();
		assertThat(ShardingScenarioTests.unreconciledSince(journal, sent)).as("the keys are still behind the gate")
			.isNotEmpty();
		figures.put("scenario took", ShardJournal.seconds(System.nanoTime() - began));
		Reliability.report("9c-sharding-cluster-bucket", "9c. Sharding: the cluster-wide manager bucket", INTRO,
				figures);
		assertThat(rate1).isBetween(QPS * 0.95, QPS * 1.05);
		assertThat(rate2).isBetween(QPS * 0.95, QPS * 1.05);
	}

	private Thread writer(int count, String version, Map<String, Long> sent) {
		return new Thread(() -> {
			try {
				sent.putAll(this.replicas.write(this.client, count, version));
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	private static void awaitPast(long nanos) {
		await().atMost(WINDOW.plus(LIMIT)).until(() -> System.nanoTime() > nanos);
	}

	private static long starts(ShardJournal journal, String replica, long from, long to) throws Exception {
		return journal.facts(replica, "start")
			.stream()
			.filter((fact) -> fact.nanos() >= from && fact.nanos() < to)
			.count();
	}

	private static double rate(ShardJournal journal, String replica, long from, long to) throws Exception {
		return starts(journal, replica, from, to) / ((to - from) / 1e9);
	}

	private static String format(double rate) {
		return String.format("%.2f", rate);
	}

}
