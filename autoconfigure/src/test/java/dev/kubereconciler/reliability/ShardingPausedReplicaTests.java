package dev.kubereconciler.reliability;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.reliability.ShardJournal.Fact;
import dev.kubereconciler.reliability.ShardJournal.Reconcile;
import dev.kubereconciler.sharding.Partitioner;
import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 9b: a replica paused (SIGSTOP) for longer than the lease duration while
 * updates flow, then resumed (SIGCONT). The others take its partitions over once their
 * Leases expire; after it resumes it starts no reconcile of a partition until it has
 * acquired that partition again, because every dispatch checks the renew deadline by its
 * own clock first. Whether a reconcile that was already running when it was paused
 * overlaps with the new holder's is reported, not asserted: no Lease can prevent that.
 *
 * <p>
 * CI runs it at a reduced size (200 objects, 16 partitions, a 6 s lease, a 9 s pause);
 * {@code -Dkube-reconciler.reliability.sharding=true} runs the size (300 objects,
 * 32 partitions, a 10 s lease, a 15 s pause).
 */
@KubernetesTest
class ShardingPausedReplicaTests extends ShardingScenario {

	private static final int OBJECTS = Reliability.scaled(FULL ? 300 : 200);

	// each reconcile takes this long, so that some are in flight at the SIGSTOP
	private static final Duration RECONCILE = Duration.ofMillis(200);

	private static final Duration PAUSE = LEASE_DURATION.plusSeconds(FULL ? 5 : 3);

	private static final Duration LIMIT = Duration.ofSeconds(90);

	private static final String INTRO = """
			`ShardingPausedReplicaTests` pauses one of three replicas with SIGSTOP for longer than
			the lease while every object is updated again and again, then resumes it with SIGCONT.
			The others take its partitions over after their Leases expire. After SIGCONT the paused
			replica must start no reconcile of a partition before it has acquired that partition
			again (by its journal), because every dispatch checks, by its own clock, that the
			partition's Lease was renewed within the renew deadline. A reconcile that was already
			running at the SIGSTOP resumes where it stopped; whether it overlapped with the new
			holder's reconcile of the same key is reported, not asserted: that is the limit of any
			Lease. CI runs it at a reduced size (200 objects, 16 partitions, a 6 s lease, a 4 s renew
			deadline, a 9 s pause); `-Dkube-reconciler.reliability.sharding=true` runs it at 300
			objects, 32 partitions, a 10 s lease and a 15 s pause. The first row says which size
			produced the figures.
			""";

	@Test
	void aResumedReplicaStartsNoReconcileOfAPartitionItLost() throws Exception {
		long began = System.nanoTime();
		ShardJournal journal = prepare("--reconcile-millis=" + RECONCILE.toMillis());
		Set<String> three = Set.of("r1", "r2", "r3");
		this.replicas.start("r1", "r2", "r3");
		await().atMost(LIMIT).until(() -> ShardJournal.balanced(journal.held(), three, PARTITIONS));
		this.replicas.write(this.client, OBJECTS, "v1");
		await().atMost(LIMIT).until(() -> journal.reconciledSince(null, 0).size() == OBJECTS);

		// updates flow through the whole pause
		AtomicBoolean writing = new AtomicBoolean(true);
		AtomicInteger rounds = new AtomicInteger();
		Thread writer = new Thread(() -> {
			try {
				while (writing.get()) {
					this.replicas.write(this.client, OBJECTS, "v" + (rounds.incrementAndGet() + 1), 2);
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		long flowing = System.nanoTime();
		writer.start();
		await().atMost(LIMIT).until(() -> !journal.reconciledSince("r2", flowing).isEmpty());
		Map<String, Integer> before = journal.held();
		Set<Integer> ofR2 = journal.partitionsHeld("r2");
		this.replicas.signal("r2", "STOP");
		long stoppedAt = System.nanoTime();
		await().atMost(LIMIT).until(() -> {
			Map<String, Integer> held = journal.held();
			return System.nanoTime() - stoppedAt > PAUSE.toNanos()
					&& held.getOrDefault("r1", 0) + held.getOrDefault("r3", 0) == PARTITIONS;
		});
		long takenOver = lastAcquired(journal, stoppedAt, ofR2);
		long contAt = System.nanoTime();
		this.replicas.signal("r2", "CONT");
		await().atMost(LIMIT)
			.until(() -> ShardJournal.balanced(journal.held(), three, PARTITIONS)
					&& journal.facts("r2", "acquire").stream().anyMatch((fact) -> fact.nanos() > contAt));
		long rebalanced = ShardJournal.balancedSince(journal.facts(null, null), three, PARTITIONS, contAt);
		await().atMost(LIMIT)
			.until(() -> journal.facts("r2", "start")
				.stream()
				.filter((fact) -> fact.nanos() > rebalanced)
				.count() >= 20);
		writing.set(false);
		writer.join();

		List<Fact> facts = journal.facts(null, null);
		Partitioner partitioner = new Partitioner(PARTITIONS);
		long whilePaused = facts.stream()
			.filter((fact) -> fact.replica().equals("r2") && fact.nanos() > stoppedAt && fact.nanos() < contAt)
			.count();
		List<Fact> startsAfter = facts.stream()
			.filter((fact) -> fact.replica().equals("r2") && fact.fact().equals("start") && fact.nanos() > contAt)
			.toList();
		List<Fact> notHeld = startsAfter.stream()
			.filter((fact) -> !ShardJournal.acquiredSince(facts, "r2",
					partitioner.partitionOf(this.namespace.name() + "/" + fact.name()), contAt, fact.nanos()))
			.toList();
		long lastLost = facts.stream()
			.filter((fact) -> fact.replica().equals("r2") && fact.fact().equals("lost") && fact.nanos() > contAt)
			.mapToLong(Fact::nanos)
			.max()
			.orElse(contAt);
		List<Reconcile> reconciles = ShardJournal.reconciles(facts);
		List<Reconcile> inFlight = reconciles.stream()
			.filter((reconcile) -> reconcile.replica().equals("r2") && reconcile.start() < stoppedAt
					&& reconcile.end() > stoppedAt)
			.toList();
		List<Reconcile[]> overlaps = ShardJournal.overlaps(reconciles);
		List<Reconcile[]> otherOverlaps = overlaps.stream()
			.filter((pair) -> !inFlight.contains(pair[0]) && !inFlight.contains(pair[1]))
			.toList();

		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put(SIZE + "; each reconcile", size(OBJECTS) + "; " + RECONCILE.toMillis() + " ms");
		figures.put("partitions held before the pause", before);
		figures.put("r2 paused (SIGSTOP to SIGCONT)", ShardJournal.seconds(contAt - stoppedAt));
		figures.put("r1 and r3 held all " + PARTITIONS + " after the SIGSTOP",
				ShardJournal.seconds(takenOver - stoppedAt));
		figures.put("facts journaled by r2 while stopped", whilePaused);
		figures.put("after SIGCONT: until r2 saw every partition it held lost",
				ShardJournal.seconds(lastLost - contAt));
		figures.put("after SIGCONT: until the partitions were balanced again",
				ShardJournal.seconds(rebalanced - contAt));
		figures.put("reconciles r2 started after SIGCONT; of partitions it had not acquired again",
				startsAfter.size() + "; " + notHeld.size());
		figures.put("reconciles in flight on r2 at the SIGSTOP; overlapping another replica's of the same key",
				inFlight.size() + "; "
						+ overlaps.stream()
							.filter((pair) -> inFlight.contains(pair[0]) || inFlight.contains(pair[1]))
							.count());
		figures.put("other keys reconciled by two replicas at once", otherOverlaps.size());
		figures.put("rounds of updates written", rounds.get());
		figures.put("scenario took", ShardJournal.seconds(System.nanoTime() - began));
		Reliability.report("9b-sharding-paused-replica", title("9b. Sharding: a paused replica"), INTRO, figures);
		assertThat(whilePaused).as("SIGSTOP stopped r2").isZero();
		assertThat(notHeld).isEmpty();
		assertThat(otherOverlaps).isEmpty();
	}

}
