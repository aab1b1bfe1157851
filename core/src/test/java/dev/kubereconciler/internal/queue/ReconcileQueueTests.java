package dev.kubereconciler.internal.queue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.time.ManualClock;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ReconcileQueue}: client-go's invariants, exact delays on a manual
 * clock, and the observer hooks, each in plain and in priority mode, where keys of one
 * priority keep the plain queue's order.
 */
@ParameterizedClass(name = "priority mode: {0}")
@ValueSource(booleans = { false, true })
class ReconcileQueueTests {

	private final boolean priority;

	private final ManualClock scheduler = new ManualClock();

	private final RecordingObserver observer = new RecordingObserver();

	private final ReconcileQueue<String> queue;

	private final WorkerQueue<String> worker;

	ReconcileQueueTests(boolean priority) {
		this.priority = priority;
		this.queue = ReconcileQueue.<String>builder()
			.name("test")
			.rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)))
			.scheduler(this.scheduler)
			.observer(this.observer)
			.priority(priority)
			.build();
		this.worker = WorkerQueue.of(this.queue);
	}

	@Test
	void addDeduplicatesPendingKeys() throws Exception {
		this.queue.add("a");
		this.queue.add("b");
		this.queue.add("a");
		assertThat(this.queue.depth()).isEqualTo(2);
		assertThat(take()).isEqualTo("a");
		assertThat(take()).isEqualTo("b");
		assertThat(this.observer.added).containsExactly("a", "b");
	}

	@Test
	void keyHeldByAWorkerIsNotHandedOutAgainUntilDone() throws Exception {
		this.queue.add("a");
		assertThat(take()).isEqualTo("a");
		this.queue.add("a");
		this.queue.add("a");
		assertThat(this.queue.depth()).isZero();
		assertThat(this.queue.gauges().inFlight()).isEqualTo(1);
		this.queue.done("a");
		assertThat(this.queue.depth()).isEqualTo(1);
		assertThat(take()).isEqualTo("a");
		this.queue.done("a");
		assertThat(this.queue.depth()).isZero();
		assertThat(this.queue.gauges().inFlight()).isZero();
	}

	@Test
	void workerNextFinishesOneKeyAndTakesTheNext() throws Exception {
		this.queue.add("a");
		this.queue.add("b");
		WorkerQueue.Taken<String> first = this.worker.next(null, this.scheduler.read());
		assertThat(first.item()).isEqualTo("a");
		this.queue.add("a");
		this.scheduler.advanceWithoutRunning(Duration.ofMillis(4));
		long now = this.scheduler.read();
		WorkerQueue.Taken<String> taken = this.worker.next(first, now);
		assertThat(taken.item()).isEqualTo("b");
		assertThat(taken.takenAt()).isEqualTo(now);
		assertThat(this.observer.worked).containsExactly(Duration.ofMillis(4).toNanos());
		assertThat(this.queue.gauges().inFlight()).isEqualTo(1);
		// "a" was re-added while held: done put it back, behind "b"
		assertThat(this.worker.next(taken, now).item()).isEqualTo("a");
		assertThat(this.queue.depth()).isZero();
	}

	@Test
	void workerNextMarksTheKeyDoneEvenWhenTheWaitIsInterrupted() throws Exception {
		this.queue.add("a");
		WorkerQueue.Taken<String> taken = this.worker.next(null, this.scheduler.read());
		Thread.currentThread().interrupt();
		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> this.worker.next(taken, this.scheduler.read()));
		assertThat(this.queue.gauges().inFlight()).isZero();
	}

	@Test
	void doneWithoutReAddLeavesNothingBehind() throws Exception {
		this.queue.add("a");
		take();
		this.queue.done("a");
		this.queue.done("a");
		assertThat(this.queue.depth() + this.queue.waiting() + this.queue.gauges().inFlight()).isZero();
	}

	@Test
	void addAfterWaitsExactlyTheDelay() {
		this.queue.addAfter("a", Duration.ofMillis(100), Trigger.REQUEUE_AFTER);
		assertThat(this.queue.waiting()).isEqualTo(1);
		this.scheduler.advance(Duration.ofMillis(100).minusNanos(1));
		assertThat(this.queue.depth()).isZero();
		assertThat(this.queue.waiting()).isEqualTo(1);
		this.scheduler.advance(Duration.ofNanos(1));
		assertThat(this.queue.depth()).isEqualTo(1);
		assertThat(this.queue.waiting()).isZero();
	}

	@ParameterizedTest(name = "ticker starting at {0}")
	@ValueSource(longs = { Long.MIN_VALUE, -1_000_000_000_000L, -1, Long.MAX_VALUE - 50_000_000, Long.MAX_VALUE })
	void addAfterWaitsExactlyTheDelayWhereverTheTickerStarts(long start) throws Exception {
		// tickers, like System.nanoTime(), may start anywhere and wrap: only
		// differences count
		ManualClock scheduler = new ManualClock(start);
		ReconcileQueue<String> queue = ReconcileQueue.<String>builder()
			.rateLimiter(RateLimiters.none())
			.scheduler(scheduler)
			.priority(this.priority)
			.build();
		queue.addAfter("soon", Duration.ofMillis(100));
		queue.addAfter("later", Duration.ofHours(1));
		queue.addAfter("never", ChronoUnit.FOREVER.getDuration());
		assertThat(queue.waiting()).isEqualTo(3);
		assertThat(queue.gauges().remainingDelay("soon")).contains(Duration.ofMillis(100));
		assertThat(queue.gauges().remainingDelay("later")).contains(Duration.ofHours(1));
		scheduler.advance(Duration.ofMillis(100).minusNanos(1));
		assertThat(queue.depth()).isZero();
		scheduler.advance(Duration.ofNanos(1));
		assertThat(queue.depth()).isEqualTo(1);
		assertThat(queue.get()).contains("soon");
		scheduler.advance(Duration.ofHours(1).minusMillis(100).minusNanos(1));
		assertThat(queue.depth()).isZero();
		scheduler.advance(Duration.ofNanos(1));
		assertThat(queue.get()).contains("later");
		assertThat(queue.waiting()).isEqualTo(1);
		assertThat(queue.gauges().remainingDelay("never"))
			.hasValueSatisfying((remaining) -> assertThat(remaining).isGreaterThan(Duration.ofDays(365 * 290)));
	}

	@Test
	void addAfterWithoutPositiveDelayAddsNow() {
		this.queue.addAfter("a", Duration.ZERO, Trigger.RETRY);
		this.queue.addAfter("b", Duration.ofMillis(-1), Trigger.RETRY);
		assertThat(this.queue.depth()).isEqualTo(2);
		assertThat(this.queue.waiting()).isZero();
	}

	@Test
	void earlierReadyTimeWins() {
		this.queue.addAfter("a", Duration.ofSeconds(1), Trigger.RETRY);
		this.queue.addAfter("a", Duration.ofMillis(100), Trigger.RETRY);
		this.queue.addAfter("a", Duration.ofSeconds(2), Trigger.RETRY);
		assertThat(this.queue.waiting()).isEqualTo(1);
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.queue.depth()).isEqualTo(1);
		assertThat(this.queue.waiting()).isZero();
	}

	@Test
	void remainingDelayCountsDownForAWaitingKeyOnly() throws Exception {
		this.queue.addAfter("a", Duration.ofMillis(100), Trigger.RETRY);
		this.queue.add("b");
		this.scheduler.advance(Duration.ofMillis(30));
		assertThat(this.queue.gauges().remainingDelay("a")).contains(Duration.ofMillis(70));
		assertThat(this.queue.gauges().remainingDelay("b")).isEmpty();
		assertThat(this.queue.gauges().remainingDelay("c")).isEmpty();
		this.scheduler.advance(Duration.ofMillis(70));
		assertThat(this.queue.gauges().remainingDelay("a")).isEmpty();
	}

	@Test
	void immediateAddTakesAWaitingKeyOutOfTheHeap() throws Exception {
		this.queue.addAfter("a", Duration.ofSeconds(1), Trigger.RETRY);
		this.queue.add("a");
		assertThat(this.queue.waiting()).isZero();
		assertThat(take()).isEqualTo("a");
		this.queue.done("a");
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.queue.depth()).isZero();
	}

	@Test
	void addAfterOfAPendingKeyIsIgnored() {
		this.queue.add("a");
		this.queue.addAfter("a", Duration.ofSeconds(1), Trigger.RETRY);
		assertThat(this.queue.waiting()).isZero();
		assertThat(this.queue.depth()).isEqualTo(1);
	}

	@Test
	void addAfterWhileHeldWaitsAndIsHandedOutAfterDone() throws Exception {
		this.queue.add("a");
		take();
		this.queue.addAfter("a", Duration.ofMillis(10), Trigger.REQUEUE_AFTER);
		this.queue.done("a");
		assertThat(this.queue.depth()).isZero();
		this.scheduler.advance(Duration.ofMillis(10));
		assertThat(takeCause()).isEqualTo(Trigger.REQUEUE_AFTER);
	}

	@Test
	void delayedKeysBecomeReadyInReadyTimeOrder() throws Exception {
		this.queue.addAfter("c", Duration.ofMillis(30), Trigger.RETRY);
		this.queue.addAfter("a", Duration.ofMillis(10), Trigger.RETRY);
		this.queue.addAfter("b", Duration.ofMillis(20), Trigger.RETRY);
		this.scheduler.advance(Duration.ofMillis(30));
		assertThat(List.of(take(), take(), take())).containsExactly("a", "b", "c");
	}

	@Test
	void noKeyIsDroppedWithManyWaiting() throws Exception {
		int count = 150_000;
		Random random = new Random(42);
		for (int i = 0; i < count; i++) {
			this.queue.addAfter("key-" + i, Duration.ofMillis(1 + random.nextInt(10_000)), Trigger.RETRY);
		}
		assertThat(this.queue.waiting()).isEqualTo(count);
		this.scheduler.advance(Duration.ofMillis(5_000));
		int early = this.queue.depth();
		assertThat(early).isBetween(count / 3, 2 * count / 3);
		this.scheduler.advance(Duration.ofMillis(5_000));
		assertThat(this.queue.depth()).isEqualTo(count);
		assertThat(this.queue.waiting()).isZero();
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < count; i++) {
			seen.add(take());
		}
		assertThat(seen).hasSize(count);
		assertThat(this.scheduler.pending()).isZero();
	}

	@Test
	void onlyOneWakeUpIsScheduledForManyWaitingKeys() {
		for (int i = 0; i < 1000; i++) {
			this.queue.addAfter("key-" + i, Duration.ofMillis(1000 - i), Trigger.RETRY);
		}
		assertThat(this.scheduler.pending()).isEqualTo(1);
	}

	@Test
	void addRateLimitedWaitsWhatTheLimiterSays() {
		assertThat(this.queue.addRateLimited("a").delay()).isEqualTo(Duration.ofMillis(5));
		this.scheduler.advance(Duration.ofMillis(5));
		assertThat(this.queue.depth()).isEqualTo(1);
		assertThat(this.queue.numRequeues("a")).isEqualTo(1);
		assertThat(this.queue.addRateLimited("b").delay()).isEqualTo(Duration.ofMillis(5));
		assertThat(this.queue.addRateLimited("b").delay()).isEqualTo(Duration.ofMillis(10));
		this.queue.forget("b");
		assertThat(this.queue.numRequeues("b")).isZero();
		assertThat(this.queue.addRateLimited("b").delay()).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void remembersTheCauseOfTheLatestAdd() throws Exception {
		this.queue.add("event");
		this.queue.addAfter("after", Duration.ofMillis(1), Trigger.REQUEUE_AFTER);
		this.queue.addRateLimited("retry");
		this.scheduler.advance(Duration.ofMillis(5));
		List<Trigger> causes = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			causes.add(takeCause());
		}
		assertThat(causes).containsExactly(Trigger.EVENT, Trigger.REQUEUE_AFTER, Trigger.RETRY);
	}

	@Test
	void latestCauseWinsForAKeyAddedWhileHeld() throws Exception {
		this.queue.addRateLimited("a");
		this.scheduler.advance(Duration.ofMillis(5));
		take();
		this.queue.add("a", Trigger.EVENT);
		this.queue.done("a");
		assertThat(takeCause()).isEqualTo(Trigger.EVENT);
	}

	@Test
	void shutDownStopsHandingOutKeysAndIgnoresAdds() throws Exception {
		this.queue.add("a");
		this.queue.addAfter("b", Duration.ofMillis(1), Trigger.RETRY);
		this.queue.shutDown();
		assertThat(this.queue.get()).isEmpty();
		this.queue.add("c");
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(this.queue.isShuttingDown()).isTrue();
		assertThat(this.queue.get()).isEmpty();
		assertThat(this.scheduler.pending()).isZero();
	}

	@Test
	void shutDownReleasesBlockedWorkers() {
		AtomicReference<Optional<String>> result = new AtomicReference<>();
		Thread worker = new Thread(() -> {
			try {
				result.set(this.queue.get());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		worker.start();
		await().until(() -> worker.getState() == Thread.State.WAITING);
		this.queue.shutDown();
		await().until(() -> result.get() != null);
		assertThat(result.get()).isEmpty();
	}

	@Test
	void shutDownWithDrainWaitsForHeldKeys() throws Exception {
		this.queue.add("a");
		take();
		assertThat(this.queue.shutDownWithDrain(Duration.ZERO)).isFalse();
		AtomicReference<Boolean> drained = new AtomicReference<>();
		Thread waiter = new Thread(() -> {
			try {
				drained.set(this.queue.shutDownWithDrain(Duration.ofMinutes(1)));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		waiter.start();
		await().until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
		assertThat(drained.get()).isNull();
		this.queue.done("a");
		await().until(() -> drained.get() != null);
		assertThat(drained.get()).isTrue();
	}

	@Test
	void shutDownWithDrainTimesOutOnTheQueuesClock() throws Exception {
		this.queue.add("a");
		take();
		AtomicReference<Boolean> drained = new AtomicReference<>();
		Thread waiter = new Thread(() -> {
			try {
				drained.set(this.queue.shutDownWithDrain(Duration.ofHours(1)));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		waiter.start();
		await().until(() -> waiter.getState() == Thread.State.TIMED_WAITING && this.scheduler.pending() == 1);
		this.scheduler.advance(Duration.ofHours(1).minusNanos(1));
		assertThat(drained.get()).isNull();
		this.scheduler.advanceWithoutRunning(Duration.ofNanos(1));
		this.scheduler.runDue();
		await().until(() -> drained.get() != null);
		assertThat(drained.get()).isFalse();
		assertThat(this.scheduler.pending()).isZero();
	}

	@Test
	void observerSeesAddsRetriesAndExactDurations() throws Exception {
		this.queue.add("a");
		this.queue.add("a");
		this.queue.addAfter("b", Duration.ofMillis(20), Trigger.REQUEUE_AFTER);
		this.queue.addRateLimited("c");
		this.scheduler.advance(Duration.ofMillis(7));
		assertThat(take()).isEqualTo("a");
		assertThat(take()).isEqualTo("c");
		this.scheduler.advanceWithoutRunning(Duration.ofMillis(3));
		assertThat(this.queue.gauges().unfinishedWorkNanos()).isEqualTo(Duration.ofMillis(6).toNanos());
		assertThat(this.queue.gauges().longestRunningProcessorNanos()).isEqualTo(Duration.ofMillis(3).toNanos());
		this.queue.done("a");
		assertThat(this.observer.added).containsExactly("a", "c");
		assertThat(this.observer.retried).containsExactly("b", "c");
		assertThat(this.observer.queued).containsExactly(Duration.ofMillis(7).toNanos(),
				Duration.ofMillis(2).toNanos());
		assertThat(this.observer.worked).containsExactly(Duration.ofMillis(3).toNanos());
		this.queue.done("c");
		assertThat(this.queue.gauges().unfinishedWorkNanos()).isZero();
		assertThat(this.queue.gauges().longestRunningProcessorNanos()).isZero();
	}

	@Test
	void startWorkLeavesAWaitBeforeTheWorkOutOfWorkDuration() throws Exception {
		this.queue.add("a");
		take();
		this.scheduler.advanceWithoutRunning(Duration.ofSeconds(2));
		this.worker.startWork("a");
		this.scheduler.advanceWithoutRunning(Duration.ofMillis(30));
		assertThat(this.queue.gauges().longestRunningProcessorNanos()).isEqualTo(Duration.ofMillis(30).toNanos());
		this.queue.done("a");
		assertThat(this.observer.worked).containsExactly(Duration.ofMillis(30).toNanos());
		assertThat(this.queue.gauges().inFlight()).isZero();
	}

	@Test
	void concurrentWorkersNeverHoldOneKeyTogetherAndLoseNothing() throws Exception {
		ReconcileQueue<String> queue = ReconcileQueue.<String>builder()
			.rateLimiter(RateLimiters.none())
			.scheduler(this.scheduler)
			.priority(this.priority)
			.build();
		Set<String> held = ConcurrentHashMap.newKeySet();
		List<String> overlaps = new CopyOnWriteArrayList<>();
		ConcurrentHashMap<String, AtomicInteger> lastSeen = new ConcurrentHashMap<>();
		ConcurrentHashMap<String, AtomicInteger> lastAdded = new ConcurrentHashMap<>();
		List<Thread> workers = new ArrayList<>();
		for (int w = 0; w < 4; w++) {
			Thread worker = new Thread(() -> {
				try {
					Optional<String> next;
					while ((next = queue.get()).isPresent()) {
						String key = next.get();
						if (!held.add(key)) {
							overlaps.add(key);
						}
						// what this worker observes is the version added before it took
						// the key
						int version = lastAdded.get(key).get();
						lastSeen.computeIfAbsent(key, (k) -> new AtomicInteger()).accumulateAndGet(version, Math::max);
						held.remove(key);
						queue.done(key);
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			worker.start();
			workers.add(worker);
		}
		for (int version = 1; version <= 200; version++) {
			for (int k = 0; k < 50; k++) {
				String key = "key-" + k;
				lastAdded.computeIfAbsent(key, (x) -> new AtomicInteger()).set(version);
				// mixed priorities: raising a ready key must not lose or duplicate
				// it either
				int priority = ((version + k) % 2 == 0) ? Priorities.LOW : version % 5;
				queue.add(key, Trigger.EVENT, priority);
			}
		}
		await().until(() -> lastSeen.size() == 50 && lastSeen.values().stream().allMatch((seen) -> seen.get() == 200));
		queue.shutDown();
		for (Thread worker : workers) {
			worker.join();
		}
		assertThat(overlaps).isEmpty();
	}

	@Test
	void builderRequiresALimiterAndAScheduler() {
		assertThatIllegalStateException()
			.isThrownBy(() -> ReconcileQueue.<String>builder().scheduler(this.scheduler).build())
			.withMessageContaining("rate limiter");
		assertThatIllegalStateException()
			.isThrownBy(() -> ReconcileQueue.<String>builder().rateLimiter(RateLimiters.none()).build())
			.withMessageContaining("scheduler");
	}

	private String take() throws InterruptedException {
		return this.queue.get().orElseThrow();
	}

	private Trigger takeCause() throws InterruptedException {
		return this.worker.next(null, this.scheduler.read()).cause();
	}

	private static final class RecordingObserver implements QueueObserver<String> {

		final List<String> added = Collections.synchronizedList(new ArrayList<>());

		final List<String> retried = Collections.synchronizedList(new ArrayList<>());

		final List<Long> queued = Collections.synchronizedList(new ArrayList<>());

		final List<Long> worked = Collections.synchronizedList(new ArrayList<>());

		@Override
		public void added(String item, Trigger cause) {
			this.added.add(item);
		}

		@Override
		public void retried(String item) {
			this.retried.add(item);
		}

		@Override
		public void dequeued(String item, long queuedNanos) {
			this.queued.add(queuedNanos);
		}

		@Override
		public void finished(String item, long workNanos) {
			this.worked.add(workNanos);
		}

	}

}
