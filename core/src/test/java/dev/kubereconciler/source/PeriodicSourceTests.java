package dev.kubereconciler.source;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class PeriodicSourceTests {

	private static final Duration PERIOD = Duration.ofSeconds(30);

	private final RecordingSourceContext context = new RecordingSourceContext();

	private final List<Duration> pollTimes = new ArrayList<>();

	private final long start = this.context.clock.read();

	private void polled() {
		this.pollTimes.add(Duration.ofNanos(this.context.clock.read() - this.start));
	}

	@Test
	void pollingSourceTakesItsFirstPollAsTheBaselineAndEnqueuesOnlyWhatChanged() {
		Map<Request, String> external = new ConcurrentHashMap<>(
				Map.of(new Request("ns", "a"), "v1", new Request("ns", "b"), "v1", new Request("ns", "c"), "v1"));
		PollingSource source = Source.polling("inventory", PERIOD, () -> {
			polled();
			return Map.copyOf(external);
		});
		source.start(this.context);
		this.context.clock.runDue();
		assertThat(this.pollTimes).containsExactly(Duration.ZERO);
		assertThat(this.context.added).isEmpty();
		external.put(new Request("ns", "a"), "v2");
		external.remove(new Request("ns", "b"));
		external.put(new Request("ns", "d"), "v1");
		this.context.clock.advance(PERIOD.minusNanos(1));
		assertThat(this.pollTimes).hasSize(1);
		this.context.clock.advance(Duration.ofNanos(1));
		assertThat(this.pollTimes).containsExactly(Duration.ZERO, PERIOD);
		assertThat(this.context.added).containsExactlyInAnyOrder(new Request("ns", "a"), new Request("ns", "b"),
				new Request("ns", "d"));
		this.context.clock.advance(PERIOD);
		assertThat(this.pollTimes).containsExactly(Duration.ZERO, PERIOD, PERIOD.multipliedBy(2));
		assertThat(this.context.added).hasSize(3);
	}

	@Test
	void failedPollsWaitForTheSourcesLimiterAndASuccessReturnsToThePeriod() {
		AtomicInteger failures = new AtomicInteger(2);
		PollingSource source = Source.polling("inventory", PERIOD, () -> {
			polled();
			if (failures.getAndDecrement() > 0) {
				throw new IOException("inventory unreachable");
			}
			return Map.of();
		}).rateLimiter(RateLimiters.exponential(Duration.ofSeconds(1), Duration.ofMinutes(5)));
		source.start(this.context);
		this.context.clock.runDue();
		this.context.clock.advance(Duration.ofSeconds(1));
		this.context.clock.advance(Duration.ofMillis(1999));
		assertThat(this.pollTimes).hasSize(2);
		this.context.clock.advance(Duration.ofMillis(1));
		this.context.clock.advance(PERIOD);
		// 0 fails, 1 s later fails, 2 s later succeeds, then one period
		assertThat(this.pollTimes).containsExactly(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(3),
				Duration.ofSeconds(3).plus(PERIOD));
		assertThat(source.rateLimiter().numRequeues("inventory")).isZero();
	}

	@Test
	void perObjectPollingEnqueuesTheObjectWhoseStateChangedAndRetriesAFailedObjectAlone() {
		Request a = this.context.cache("ns", "a");
		Request b = this.context.cache("ns", "b");
		Map<String, String> external = new ConcurrentHashMap<>(Map.of("a", "ready", "b", "ready"));
		Map<String, List<Duration>> polls = new ConcurrentHashMap<>();
		AtomicInteger bFailures = new AtomicInteger();
		PerObjectPollingSource<V1ConfigMap> source = Source
			.perObject("provisioning", V1ConfigMap.class, PERIOD, (V1ConfigMap object) -> {
				String name = object.getMetadata().getName();
				polls.computeIfAbsent(name, (key) -> new ArrayList<>())
					.add(Duration.ofNanos(this.context.clock.read() - this.start));
				if (name.equals("b") && bFailures.getAndDecrement() > 0) {
					throw new IOException("provider timed out");
				}
				return external.get(name);
			})
			.rateLimiter(RateLimiters.exponential(Duration.ofSeconds(2), Duration.ofMinutes(5)));
		source.start(this.context);
		this.context.clock.runDue();
		// each object's first state is a change from nothing
		assertThat(this.context.added).containsExactly(a, b);
		this.context.added.clear();
		external.put("a", "degraded");
		bFailures.set(1);
		this.context.clock.advance(PERIOD);
		assertThat(this.context.added).containsExactly(a);
		this.context.clock.advance(Duration.ofSeconds(2));
		assertThat(polls.get("b")).containsExactly(Duration.ZERO, PERIOD, PERIOD.plusSeconds(2));
		assertThat(polls.get("a")).containsExactly(Duration.ZERO, PERIOD);
		assertThat(this.context.added).containsExactly(a);
		external.put("b", "gone");
		this.context.clock.advance(PERIOD.minusSeconds(2));
		assertThat(this.context.added).containsExactly(a, b);
	}

	@Test
	void anObjectLostBeforeItsFirstAnswerIsEnqueuedByThatAnswerAndOnlyOnce() {
		Request a = this.context.cache("ns", "a");
		// nothing provisioned yet: the poll has nothing to report
		Map<String, Boolean> present = new ConcurrentHashMap<>();
		Source
			.perObject("lost", V1ConfigMap.class, PERIOD,
					(V1ConfigMap object) -> present.get(object.getMetadata().getName()))
			.start(this.context);
		this.context.clock.runDue();
		assertThat(this.context.added).isEmpty();
		// provisioned by a reconcile and lost again before the next poll
		present.put("a", false);
		this.context.clock.advance(PERIOD);
		assertThat(this.context.added).containsExactly(a);
		this.context.clock.advance(PERIOD);
		assertThat(this.context.added).containsExactly(a);
	}

	@Test
	void anObjectsFirstAnswerIsEnqueuedAtLowPriorityAndALaterChangeAtNormal() {
		Request a = this.context.cache("ns", "a");
		Map<String, String> external = new ConcurrentHashMap<>(Map.of("a", "v1"));
		Source
			.perObject("inventory", V1ConfigMap.class, PERIOD,
					(V1ConfigMap object) -> external.get(object.getMetadata().getName()))
			.start(this.context);
		this.context.clock.runDue();
		external.put("a", "v2");
		this.context.clock.advance(PERIOD);
		assertThat(this.context.added).containsExactly(a, a);
		// a new leader's first polls of every object go after the changes written
		// meanwhile
		assertThat(this.context.priorities).containsExactly(Priorities.LOW, Priorities.NORMAL);
	}

	@Test
	void timerReconcilesEveryCachedKeyOncePerPeriodStartingOnePeriodAfterTheStart() {
		Request a = this.context.cache("ns", "a");
		Request b = this.context.cache("ns", "b");
		TimerSource source = Source.timer("nightly", PERIOD);
		source.start(this.context);
		this.context.clock.runDue();
		this.context.clock.advance(PERIOD.minusNanos(1));
		assertThat(this.context.added).isEmpty();
		this.context.clock.advance(Duration.ofNanos(1));
		assertThat(this.context.added).containsExactly(a, b);
		this.context.clock.advance(PERIOD);
		assertThat(this.context.added).containsExactly(a, b, a, b);
	}

	@Test
	void aStoppedSourcePollsNoMoreAndStartsAgainFromANewBaseline() {
		Map<Request, String> external = new ConcurrentHashMap<>(Map.of(new Request("ns", "a"), "v1"));
		PollingSource source = Source.polling("inventory", PERIOD, () -> {
			polled();
			return Map.copyOf(external);
		});
		source.start(this.context);
		this.context.clock.runDue();
		source.stop();
		external.put(new Request("ns", "a"), "v2");
		this.context.clock.advance(PERIOD.multipliedBy(3));
		assertThat(this.pollTimes).containsExactly(Duration.ZERO);
		source.start(this.context);
		this.context.clock.runDue();
		assertThat(this.context.added).isEmpty();
	}

	@Test
	void withShardingASourcePollsAndTakesOnlyTheKeysThisReplicaReconciles() {
		Request mine = this.context.cache("ns", "mine");
		Request theirs = this.context.cache("ns", "theirs");
		this.context.owned = mine::equals;
		List<String> polled = new ArrayList<>();
		Source.perObject("provider", V1ConfigMap.class, PERIOD, (V1ConfigMap object) -> {
			polled.add(object.getMetadata().getName());
			return "ready";
		}).start(this.context);
		Source.timer("nightly", PERIOD).start(this.context);
		ChannelSource channel = Source.channel("webhook");
		channel.start(this.context);
		this.context.clock.runDue();
		this.context.clock.advance(PERIOD);
		assertThat(polled).containsExactly("mine", "mine");
		assertThat(channel.offer(theirs)).isFalse();
		// the poll's first answer and the timer's tick
		assertThat(this.context.added).containsExactly(mine, mine);
	}

	@Test
	void aSourceRunsInOneControllerAtATime() {
		TimerSource source = Source.timer("nightly", PERIOD);
		source.start(this.context);
		assertThatIllegalStateException().isThrownBy(() -> source.start(new RecordingSourceContext()))
			.withMessageContaining("Source 'nightly' already runs in controller 'widget'");
	}

	@Test
	void aPeriodMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> Source.timer("nightly", Duration.ZERO))
			.withMessage("Source 'nightly' period must be positive, was PT0S");
	}

	@Test
	void aChannelQueuesOnlyWhileItsControllerRuns() {
		ChannelSource channel = Source.channel("webhook");
		assertThat(channel.offer(new Request("ns", "a"))).isFalse();
		channel.start(this.context);
		assertThat(channel.offer(new Request("ns", "a"))).isTrue();
		assertThat(channel.offer(new V1ConfigMap()
			.metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().namespace("ns").name("b")))).isTrue();
		channel.stop();
		assertThat(channel.offer(new Request("ns", "c"))).isFalse();
		assertThat(this.context.added).containsExactly(new Request("ns", "a"), new Request("ns", "b"));
	}

}
