package dev.kubereconciler.internal.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.queue.WorkerQueue.Taken;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.time.ManualClock;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Trigger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the priority mode of {@link ReconcileQueue}, rule by rule as
 * controller-runtime's {@code pkg/controller/priorityqueue}: highest priority first, FIFO
 * within a priority, priorities that only rise while a key waits, and the earliest ready
 * time. The invariants shared with the plain queue are in {@link ReconcileQueueTests}.
 */
class PriorityQueueTests {

	private static final int LOW = Priorities.LOW;

	private static final int NORMAL = Priorities.NORMAL;

	private final ManualClock scheduler = new ManualClock();

	private final ReconcileQueue<String> queue = queue(true);

	private final WorkerQueue<String> worker = WorkerQueue.of(this.queue);

	private ReconcileQueue<String> queue(boolean priority) {
		return ReconcileQueue.<String>builder()
			.rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)))
			.scheduler(this.scheduler)
			.priority(priority)
			.build();
	}

	@Test
	void higherPriorityGoesFirstAndFifoHoldsWithinAPriority() throws Exception {
		this.queue.add("initial-1", Trigger.EVENT, LOW);
		this.queue.add("initial-2", Trigger.EVENT, LOW);
		this.queue.add("change-1");
		this.queue.add("urgent", Trigger.EVENT, 10);
		this.queue.add("change-2");
		assertThat(takeAll()).containsExactly("urgent", "change-1", "change-2", "initial-1", "initial-2");
	}

	@Test
	void plainQueueIgnoresPriorities() throws Exception {
		ReconcileQueue<String> plain = queue(false);
		plain.add("initial", Trigger.EVENT, LOW);
		plain.add("change");
		assertThat(plain.gauges().depthByPriority()).containsExactly(Map.entry(NORMAL, 2));
		assertThat(plain.get()).contains("initial");
		assertThat(plain.get()).contains("change");
	}

	@Test
	void aReadyKeyIsRaisedToTheEndOfItsNewPriority() throws Exception {
		this.queue.add("a", Trigger.EVENT, LOW);
		this.queue.add("b");
		this.queue.add("c", Trigger.EVENT, LOW);
		this.queue.add("a");
		assertThat(this.queue.depth()).isEqualTo(3);
		assertThat(takeAll()).containsExactly("b", "a", "c");
	}

	@Test
	void aKeyRaisedTwiceAndAddedAgainAtItsFirstPriorityTakesItsNewPlaceInLine() throws Exception {
		this.queue.add("a", Trigger.EVENT, LOW);
		this.queue.add("b", Trigger.EVENT, LOW);
		this.queue.add("a");
		this.queue.add("a", Trigger.EVENT, 5);
		assertThat(this.queue.gauges().depthByPriority()).containsOnly(Map.entry(5, 1), Map.entry(LOW, 1));
		assertThat(this.queue.get()).contains("a");
		this.queue.done("a");
		// "a" left its places in the low and normal lines behind; added again at low, it
		// queues after "b" and is taken once
		this.queue.add("a", Trigger.EVENT, LOW);
		this.queue.add("c", Trigger.EVENT, LOW);
		assertThat(this.queue.gauges().depthByPriority()).containsOnly(Map.entry(LOW, 3));
		assertThat(takeAll()).containsExactly("b", "a", "c");
		assertThat(this.queue.gauges().depthByPriority()).isEmpty();
	}

	@Test
	void aPriorityNeverFallsWhileTheKeyWaits() throws Exception {
		this.queue.add("a");
		this.queue.add("b", Trigger.EVENT, LOW);
		this.queue.add("a", Trigger.EVENT, LOW);
		assertThat(this.queue.gauges().depthByPriority()).containsOnly(Map.entry(NORMAL, 1), Map.entry(LOW, 1));
		assertThat(next().priority()).isEqualTo(NORMAL);
	}

	@Test
	void anAddAfterOfAReadyKeyRaisesItsPriorityButAddsNoTimer() throws Exception {
		this.queue.add("a", Trigger.EVENT, LOW);
		this.queue.add("b");
		this.queue.addAfter("a", Duration.ofSeconds(1), Trigger.REQUEUE_AFTER, 5);
		assertThat(this.queue.waiting()).isZero();
		assertThat(takeAll()).containsExactly("a", "b");
	}

	@Test
	void aWaitingKeyKeepsTheEarlierReadyTimeAndTheHigherPriority() throws Exception {
		this.queue.addAfter("a", Duration.ofMillis(10), Trigger.RETRY, LOW);
		this.queue.addAfter("a", Duration.ofMillis(50), Trigger.REQUEUE_AFTER, NORMAL);
		this.queue.addAfter("b", Duration.ofMillis(10), Trigger.RETRY, NORMAL);
		assertThat(this.queue.gauges().remainingDelay("a")).contains(Duration.ofMillis(10));
		this.scheduler.advance(Duration.ofMillis(10));
		Taken<String> first = next();
		assertThat(first.item()).isEqualTo("a");
		assertThat(first.priority()).isEqualTo(NORMAL);
		assertThat(first.cause()).isEqualTo(Trigger.RETRY);
		assertThat(next().item()).isEqualTo("b");
		this.scheduler.advance(Duration.ofMillis(40));
		assertThat(this.queue.depth()).isZero();
	}

	@Test
	void anImmediateAddOfAWaitingKeyKeepsTheHigherPriority() throws Exception {
		this.queue.addAfter("a", Duration.ofSeconds(1), Trigger.RETRY, 3);
		this.queue.add("b");
		this.queue.add("a", Trigger.EVENT, LOW);
		assertThat(this.queue.waiting()).isZero();
		Taken<String> first = next();
		assertThat(first.item()).isEqualTo("a");
		assertThat(first.priority()).isEqualTo(3);
	}

	@Test
	void delayedKeysBecomeReadyAtTheirPriority() throws Exception {
		this.queue.add("backlog-1", Trigger.EVENT, LOW);
		this.queue.add("backlog-2", Trigger.EVENT, LOW);
		this.queue.addAfter("low-retry", Duration.ofMillis(5), Trigger.RETRY, LOW);
		this.queue.addAfter("retry", Duration.ofMillis(5), Trigger.RETRY, NORMAL);
		this.scheduler.advance(Duration.ofMillis(5));
		assertThat(takeAll()).containsExactly("retry", "backlog-1", "backlog-2", "low-retry");
	}

	@Test
	void aKeyAddedWhileHeldIsReadyAfterDoneAtTheHighestPriorityOfThoseAdds() throws Exception {
		this.queue.add("a", Trigger.EVENT, LOW);
		assertThat(next().priority()).isEqualTo(LOW);
		this.queue.add("b", Trigger.EVENT, LOW);
		this.queue.add("a", Trigger.EVENT, LOW);
		this.queue.add("a", Trigger.EVENT, 7);
		this.queue.add("a", Trigger.EVENT, NORMAL);
		assertThat(this.queue.gauges().depthByPriority()).containsOnly(Map.entry(LOW, 1));
		this.queue.done("a");
		Taken<String> again = next();
		assertThat(again.item()).isEqualTo("a");
		assertThat(again.priority()).isEqualTo(7);
	}

	@Test
	void rateLimitedRetryKeepsThePriorityItIsGiven() throws Exception {
		this.queue.add("a", Trigger.EVENT, LOW);
		Taken<String> taken = next();
		this.queue.addRateLimited("a", taken.priority());
		this.queue.done("a");
		this.queue.add("b");
		this.scheduler.advance(Duration.ofMillis(5));
		assertThat(this.queue.gauges().depthByPriority()).containsOnly(Map.entry(NORMAL, 1), Map.entry(LOW, 1));
		assertThat(takeAll()).containsExactly("b", "a");
	}

	@Test
	void depthByPriorityCountsReadyKeysOnly() throws Exception {
		this.queue.add("a", Trigger.EVENT, LOW);
		this.queue.add("b", Trigger.EVENT, LOW);
		this.queue.add("c");
		this.queue.addAfter("d", Duration.ofSeconds(1), Trigger.RETRY, 4);
		assertThat(this.queue.gauges().depthByPriority()).containsOnly(Map.entry(NORMAL, 1), Map.entry(LOW, 2));
		next();
		assertThat(this.queue.gauges().depthByPriority()).containsOnly(Map.entry(LOW, 2));
		this.queue.shutDown();
		assertThat(this.queue.gauges().depthByPriority()).isEmpty();
	}

	private Taken<String> next() throws InterruptedException {
		return this.worker.next(null, this.scheduler.read());
	}

	private List<String> takeAll() throws InterruptedException {
		List<String> taken = new ArrayList<>();
		while (this.queue.depth() > 0) {
			taken.add(this.queue.get().orElseThrow());
		}
		return taken;
	}

}
