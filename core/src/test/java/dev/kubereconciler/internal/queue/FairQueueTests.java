package dev.kubereconciler.internal.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.controller.ManagerGate.Pass;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A queue that takes its keys in turns across clusters, on a manual clock: a cluster that
 * floods it cannot starve the others, and behind a shared manager bucket each cluster
 * gets its share of the rate; behind a split one each gets the whole rate.
 */
class FairQueueTests {

	private static final List<String> CLUSTERS = List.of("one", "two", "three");

	private final ManualClock clock = new ManualClock();

	private ReconcileQueue<Request> queue(boolean priority) {
		return ReconcileQueue.<Request>builder()
			.rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)))
			.scheduler(this.clock)
			.priority(priority)
			.fairBy(Request::cluster)
			.build();
	}

	@Test
	void aClusterThatFloodsTheQueueTakesItsTurnWithTheOthers() throws InterruptedException {
		for (boolean priority : List.of(true, false)) {
			ReconcileQueue<Request> queue = queue(priority);
			flood(queue, "one", 1000);
			flood(queue, "two", 10);
			flood(queue, "three", 10);
			Map<String, Integer> taken = new TreeMap<>();
			for (int i = 0; i < 30; i++) {
				Request request = queue.get().orElseThrow();
				taken.merge(request.cluster(), 1, Integer::sum);
				queue.done(request);
			}
			assertThat(taken).containsExactlyInAnyOrderEntriesOf(Map.of("one", 10, "two", 10, "three", 10));
			assertThat(queue.depth()).isEqualTo(1000 - 10);
		}
	}

	@Test
	void aHigherPriorityGoesFirstWhateverTheClusterWhoseTurnItIs() throws InterruptedException {
		ReconcileQueue<Request> queue = queue(true);
		for (int i = 0; i < 5; i++) {
			queue.add(new Request("ns", "initial-" + i, "one"), Trigger.EVENT, Priorities.LOW);
		}
		queue.add(new Request("ns", "change", "two"), Trigger.EVENT, Priorities.NORMAL);
		assertThat(queue.get()).contains(new Request("ns", "change", "two"));
		assertThat(queue.get()).contains(new Request("ns", "initial-0", "one"));
	}

	@Test
	void aSharedBucketOf30PerSecondAdmits30PerSecondInFairSharesAcrossFloodingClusters() throws InterruptedException {
		ReconcileQueue<Request> queue = queue(true);
		CLUSTERS.forEach((cluster) -> flood(queue, cluster, 1000));
		ManagerGate gate = new ManagerGate(RateLimiters.bucket(30, 30, this.clock), Trigger.queued(), null);
		long end = this.clock.read() + Duration.ofSeconds(20).toNanos();
		Map<String, Integer> admitted = new TreeMap<>();
		// one worker: takes a key, waits out the gate's delay, reconciles it
		while (true) {
			Request request = queue.get().orElseThrow();
			Pass pass = gate.reserve();
			if (this.clock.read() + pass.delayNanos() > end) {
				gate.giveBack(pass);
				break;
			}
			this.clock.advance(Duration.ofNanos(pass.delayNanos()));
			gate.admit(pass);
			admitted.merge(request.cluster(), 1, Integer::sum);
			queue.done(request);
		}
		int total = admitted.values().stream().mapToInt(Integer::intValue).sum();
		// the burst of 30 at once, then 30 a second for 20 s
		assertThat(total).isEqualTo(30 + 30 * 20);
		assertThat(admitted.keySet()).containsExactlyInAnyOrderElementsOf(CLUSTERS);
		admitted.values()
			.forEach((share) -> assertThat((double) share).isCloseTo(total / 3.0, within(total / 3.0 * 0.2)));
	}

	@Test
	void aSplitBucketOf30PerSecondAdmits30PerSecondToEachFloodingCluster() throws InterruptedException {
		ReconcileQueue<Request> queue = queue(true);
		CLUSTERS.forEach((cluster) -> flood(queue, cluster, 1000));
		ManagerGate gate = new ManagerGate(RateLimiters.bucket(30, 30, this.clock), Trigger.queued(), null,
				ManagerGate.AcrossClusters.SPLIT);
		long end = this.clock.read() + Duration.ofSeconds(20).toNanos();
		Map<String, Integer> admitted = new TreeMap<>();
		Set<String> done = new HashSet<>();
		// one worker: takes a key, waits out its cluster's gate, reconciles it; a cluster
		// whose next token comes after the end takes no more keys
		while (done.size() < CLUSTERS.size()) {
			Request request = queue.get().orElseThrow();
			queue.done(request);
			if (done.contains(request.cluster())) {
				continue;
			}
			ManagerGate own = gate.forCluster(request.cluster());
			Pass pass = own.reserve();
			if (this.clock.read() + pass.delayNanos() > end) {
				own.giveBack(pass);
				done.add(request.cluster());
				continue;
			}
			this.clock.advance(Duration.ofNanos(pass.delayNanos()));
			own.admit(pass);
			admitted.merge(request.cluster(), 1, Integer::sum);
		}
		// each cluster: its own burst of 30 at once, then its own 30 a second for 20 s
		assertThat(admitted).containsExactlyInAnyOrderEntriesOf(
				Map.of("one", 30 + 30 * 20, "two", 30 + 30 * 20, "three", 30 + 30 * 20));
		assertThat(gate.admitted()).isEqualTo(3 * (30 + 30 * 20));
		assertThat(gate.clusterBuckets()).containsOnlyKeys(CLUSTERS);
	}

	@Test
	void aSplitBucketKeepsTheLocalClusterOnTheManagerBucketAndRetunesTheMembersWithIt() {
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(30, 30, this.clock);
		ManagerGate gate = new ManagerGate(bucket, Trigger.queued(), null, ManagerGate.AcrossClusters.SPLIT);
		assertThat(gate.forCluster("")).isSameAs(gate);
		assertThat(gate.forCluster("one")).isSameAs(gate.forCluster("one")).isNotSameAs(gate);
		bucket.setRate(10);
		bucket.setBurst(5);
		TokenBucketRateLimiter<?> one = gate.forCluster("one").bucket();
		assertThat(one.qps()).isEqualTo(10);
		assertThat(one.burst()).isEqualTo(5);
		ManagerGate shared = new ManagerGate(bucket, Trigger.queued(), null);
		assertThat(shared.forCluster("one")).isSameAs(shared);
		assertThat(shared.clusterBuckets()).isEmpty();
	}

	private static void flood(ReconcileQueue<Request> queue, String cluster, int count) {
		List<Request> requests = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			requests.add(new Request("ns", "widget-" + i, cluster));
		}
		requests.forEach(queue::add);
	}

}
