package dev.kubereconciler.reliability;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.reliability.ShardJournal.Fact;
import dev.kubereconciler.reliability.ShardJournal.Reconcile;
import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 9: sharding across replicas in separate JVMs. One replica reconciles
 * everything; two more join and the partitions rebalance; a round of updates is shared;
 * one replica is killed (SIGKILL) during a round of updates and its partitions are taken
 * over after Lease expiry; another leaves gracefully and the last one takes everything (1
 * → 3 → 1). Over the whole run no key is reconciled by two replicas at once, and no
 * partition is held by two replicas at once, by the journal each replica writes.
 *
 * <p>
 * CI runs it at a reduced size (200 objects, 16 partitions, a 6 s lease);
 * {@code -Dkube-reconciler.reliability.sharding=true} runs the size (1,000
 * objects, 32 partitions, a 10 s lease) and asserts the share of one round of updates.
 */
@KubernetesTest
class ShardingScenarioTests extends ShardingScenario {

	private static final int OBJECTS = Reliability.scaled(FULL ? 1000 : 200);

	private static final Duration CONVERGE_LIMIT = Duration.ofSeconds(90);

	private static final String INTRO = """
			`ShardingScenarioTests` runs replicas of a sharded controller (`ShardReplica`) in separate
			JVMs against one API server: one replica reconciles every object; two more join (1 → 3);
			a round of updates is shared; one replica is killed (SIGKILL) during a round of updates
			and the survivors take its partitions over after Lease expiry; another leaves gracefully
			(SIGTERM) and the last one holds everything (3 → 1). Each replica journals, with
			`System.nanoTime()` (one monotonic clock for every process of the machine), when each
			reconcile starts and ends and, from its partition table's `PartitionHoldListener`, when it
			starts and stops holding each partition. The table calls that listener under the
			partition's lock, so a replica's `acquire` precedes every reconcile it runs of the
			partition and its `release` follows them and precedes the Lease's release: two holding
			intervals in the journal that intersect would be a real double holding. CI runs it at a
			reduced size (200 objects, 16 partitions, a 6 s lease, a 4 s renew deadline, a 1 s
			reconcile timeout); `-Dkube-reconciler.reliability.sharding=true` runs it at 1,000
			objects, 32 partitions and a 10 s lease, and asserts the ±25% share. The first row says
			which size produced the figures.
			""";

	@Test
	void replicasShareTheKeysWithoutOverlapThroughJoinsAKillAndALeave() throws Exception {
		long began = System.nanoTime();
		ShardJournal journal = prepare();
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put(SIZE, size(OBJECTS));
		this.replicas.start("r1");
		await().atMost(CONVERGE_LIMIT).until(() -> journal.held().getOrDefault("r1", 0) == PARTITIONS);
		this.replicas.write(this.client, OBJECTS, "v1");
		await().atMost(CONVERGE_LIMIT).until(() -> journal.reconciledSince("r1", 0).size() == OBJECTS);

		// 1 → 3
		long joined = System.nanoTime();
		this.replicas.start("r2", "r3");
		Set<String> three = Set.of("r1", "r2", "r3");
		await().atMost(CONVERGE_LIMIT).until(() -> ShardJournal.balanced(journal.held(), three, PARTITIONS));
		List<Fact> facts = journal.facts(null, null);
		long started = Math.max(journal.facts("r2", "identity").get(0).nanos(),
				journal.facts("r3", "identity").get(0).nanos());
		long balanced = ShardJournal.balancedSince(facts, three, PARTITIONS, joined);
		Map<String, Integer> held = new TreeMap<>(journal.held());
		figures.put("rebalance 1 → 3: from both joiners running to every replica holding ⌊P/3⌋ or ⌈P/3⌉",
				ShardJournal.seconds(balanced - started));
		figures.put("partitions held after 1 → 3", held);
		figures.put("partitions handed over in 1 → 3 (the fewest possible)",
				facts.stream().filter((fact) -> fact.fact().equals("release") && fact.nanos() >= joined).count() + " ("
						+ (PARTITIONS - held.get("r1")) + ")");

		// one round of updates, shared: each update counts for the replica that started
		// the first reconcile after it was sent (the joiners may still be reconciling the
		// cached keys of the partitions they acquired)
		Map<String, Long> round = this.replicas.write(this.client, OBJECTS, "v2");
		await().atMost(CONVERGE_LIMIT).until(() -> journal.unreconciledSince(round).isEmpty());
		Map<String, Fact> firstAfter = new HashMap<>();
		for (Fact start : journal.facts(null, "start")) {
			Long sentAt = round.get(start.name());
			if (sentAt != null && start.nanos() >= sentAt) {
				firstAfter.putIfAbsent(start.name(), start);
			}
		}
		Map<String, Long> share = new TreeMap<>();
		firstAfter.values().forEach((fact) -> share.merge(fact.replica(), 1L, Long::sum));
		double fair = OBJECTS / 3.0;
		figures.put("one round of updates, by the replica that reconciled each (fair " + Math.round(fair) + ")", share);
		assertThat(share).containsOnlyKeys("r1", "r2", "r3");
		if (FULL) {
			assertThat(share.values())
				.allSatisfy((count) -> assertThat((double) count).isBetween(fair * 0.75, fair * 1.25));
		}

		// SIGKILL of r3 during a round of updates
		Set<Integer> ofR3 = journal.partitionsHeld("r3");
		Map<String, Long> sent = new ConcurrentHashMap<>();
		Thread writer = writer(OBJECTS, "v3", sent);
		long killedAt = System.nanoTime();
		writer.start();
		long dead = this.replicas.kill("r3");
		writer.join();
		assertThat(sent).as("every object was updated").hasSize(OBJECTS);
		Set<String> two = Set.of("r1", "r2");
		await().atMost(CONVERGE_LIMIT).until(() -> {
			Map<String, Integer> now = journal.held();
			now.remove("r3");
			return ShardJournal.balanced(now, two, PARTITIONS);
		});
		long takenOver = lastAcquired(journal, killedAt, ofR3);
		figures.put("SIGKILL of r3 during a round of updates: until r1 and r2 held its " + ofR3.size() + " partitions",
				ShardJournal.seconds(takenOver - killedAt));
		// every object written after the kill is reconciled by a survivor after its write
		await().atMost(CONVERGE_LIMIT).until(() -> journal.unreconciledSince(sent).isEmpty());
		figures.put("objects updated after the kill and not reconciled after their update", 0);

		// 3 → 1: r3 was killed, r2 leaves
		long left = System.nanoTime();
		this.replicas.leave("r2");
		await().atMost(CONVERGE_LIMIT).until(() -> journal.held().getOrDefault("r1", 0) == PARTITIONS);
		// r3 was killed and journaled no release
		List<Fact> living = journal.facts(null, null).stream().filter((fact) -> !fact.replica().equals("r3")).toList();
		long alone = ShardJournal.balancedSince(living, Set.of("r1"), PARTITIONS, left);
		figures.put("graceful leave of r2 (SIGTERM): until r1 held all " + PARTITIONS,
				ShardJournal.seconds(alone - left));
		long last = System.nanoTime();
		this.replicas.write(this.client, OBJECTS, "v4");
		await().atMost(CONVERGE_LIMIT).until(() -> journal.reconciledSince("r1", last).size() == OBJECTS);

		facts = journal.facts(null, null);
		List<Reconcile[]> overlaps = ShardJournal.overlaps(ShardJournal.reconciles(facts));
		List<String> doubleHeld = ShardJournal.doubleHoldings(ShardJournal.holdings(facts, Map.of("r3", dead)));
		figures.put("reconciles in the journal", journal.facts(null, "end").size());
		figures.put("partition acquisitions; releases; losses",
				count(facts, "acquire") + "; " + count(facts, "release") + "; " + count(facts, "lost"));
		figures.put("keys reconciled by two replicas at once", overlaps.size());
		figures.put("partitions held by two replicas at once", doubleHeld.size());
		figures.put("scenario took", ShardJournal.seconds(System.nanoTime() - began));
		assertThat(overlaps).isEmpty();
		assertThat(doubleHeld).isEmpty();
		Reliability.report("9a-sharding", title("9. Sharding across replicas"), INTRO, figures);
	}

	private static long count(List<Fact> facts, String fact) {
		return facts.stream().filter((each) -> each.fact().equals(fact)).count();
	}

}
