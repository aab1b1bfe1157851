package dev.kubereconciler.reliability;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 9c: the manager bucket with {@code scope: cluster} over three replicas, with
 * far more keys behind the gate than it lets through. The cluster-wide rate of reconcile
 * starts is the configured qps ± 5% over a window after the burst; after one replica is
 * killed and the survivors have retuned to half the rate each, it is again the qps ± 5%
 * over a window.
 *
 * <p>
 * CI runs it at a reduced size (20 qps, 500 keys, 16 partitions, a 6 s lease, two 10 s
 * windows); {@code -Dkube-reconciler.reliability.sharding=true} runs the size (30
 * qps, 3,000 keys, 32 partitions, a 10 s lease, two 60 s windows: over three minutes).
 */
@KubernetesTest
class ShardingClusterBucketTests extends ShardingScenario {

	private static final int OBJECTS = Reliability.scaled(FULL ? 3000 : 500);

	private static final int QPS = FULL ? 30 : 20;

	// from the first reconcile start to the first window, past the burst
	private static final Duration WARMUP = Duration.ofSeconds(FULL ? 5 : 3);

	private static final Duration WINDOW = Duration.ofSeconds(FULL ? 60 : 10);

	private static final Duration LIMIT = Duration.ofSeconds(90);

	private static final String INTRO = """
			`ShardingClusterBucketTests` runs three replicas with
			`kube-reconciler.manager.rate-limiter.scope: cluster`, `qps: 30` and `burst: 30`, so
			each gets 10 qps and a burst of 10, and creates 3,000 ConfigMaps, far more than the gate
			lets through in the windows. The rate is the count of reconcile starts in the journal
			over a 60 s window, from 5 s after the first. Then a second round of updates keeps the
			queues full, one replica is killed (SIGKILL), and once the survivors have taken its
			partitions over (they retune to 15 qps and a burst of 15 in the same round) the rate is
			measured over another 60 s window, from 2 s after the takeover. Both rates must be the
			qps ± 5%. That is `-Dkube-reconciler.reliability.sharding=true`; CI runs it at a reduced
			size: `qps: 20` and `burst: 20` over 500 ConfigMaps, 16 partitions, a 6 s lease, and two
			10 s windows, the first from 3 s after the first reconcile. The first row says which size
			produced the figures.
			""";

	@Test
	void theClusterWideRateHoldsBeforeAndAfterAReplicaDies() throws Exception {
		long began = System.nanoTime();
		ShardJournal journal = prepare("--kube-reconciler.manager.rate-limiter.qps=" + QPS,
				"--kube-reconciler.manager.rate-limiter.burst=" + QPS,
				"--kube-reconciler.manager.rate-limiter.scope=cluster");
		this.replicas.start("r1", "r2", "r3");
		await().atMost(LIMIT).until(() -> ShardJournal.balanced(journal.held(), Set.of("r1", "r2", "r3"), PARTITIONS));
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put(SIZE + "; cluster qps; cluster burst; workers per replica",
				size(OBJECTS) + "; " + QPS + "; " + QPS + "; 4");

		Thread creator = writer(OBJECTS, "v1", new ConcurrentHashMap<>());
		creator.start();
		await().atMost(LIMIT).until(() -> !journal.facts(null, "start").isEmpty());
		long first = journal.facts(null, "start").get(0).nanos();
		figures.put("reconciles started in the first second (the burst)",
				starts(journal, null, first, first + 1_000_000_000L));
		long from1 = first + WARMUP.toNanos();
		long to1 = from1 + WINDOW.toNanos();
		awaitPast(to1);
		double rate1 = rate(journal, null, from1, to1);
		Map<String, String> byReplica = new TreeMap<>();
		for (String replica : List.of("r1", "r2", "r3")) {
			byReplica.put(replica, format(rate(journal, replica, from1, to1)));
		}
		figures.put("3 replicas: reconciles per second over " + WINDOW.toSeconds() + " s, from " + WARMUP.toSeconds()
				+ " s after the first", format(rate1));
		figures.put("3 replicas: by replica", byReplica);
		assertThat(journal.reconciledSince(null, 0))
			.as("keys still behind the gate at the end of the first window (else it measured an idle gate: more objects)")
			.hasSizeLessThan(OBJECTS);
		creator.join();

		// a second round keeps every replica's queue full after the kill
		Map<String, Long> sent = new ConcurrentHashMap<>();
		Thread updater = writer(OBJECTS, "v2", sent);
		updater.start();
		long killedAt = System.nanoTime();
		this.replicas.kill("r3");
		Set<Integer> ofR3 = journal.partitionsHeld("r3");
		await().atMost(LIMIT).until(() -> {
			Map<String, Integer> held = journal.held();
			return held.getOrDefault("r1", 0) + held.getOrDefault("r2", 0) == PARTITIONS;
		});
		long takenOver = lastAcquired(journal, killedAt, ofR3);
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
		figures.put("2 replicas: reconciles per second over " + WINDOW.toSeconds() + " s, from 2 s after the takeover",
				format(rate2));
		figures.put("2 replicas: by replica", new TreeMap<>(
				Map.of("r1", format(rate(journal, "r1", from2, to2)), "r2", format(rate(journal, "r2", from2, to2)))));
		updater.join();
		assertThat(journal.unreconciledSince(sent))
			.as("keys still behind the gate at the end of the second window (else it measured an idle gate: more objects)")
			.isNotEmpty();
		figures.put("scenario took", ShardJournal.seconds(System.nanoTime() - began));
		Reliability.report("9c-sharding-cluster-bucket", title("9c. Sharding: the cluster-wide manager bucket"), INTRO,
				figures);
		assertThat(rate1).as("reconciles per second, 3 replicas sharing qps %d", QPS).isBetween(QPS * 0.95, QPS * 1.05);
		assertThat(rate2).as("reconciles per second, 2 replicas sharing qps %d after the kill", QPS)
			.isBetween(QPS * 0.95, QPS * 1.05);
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
