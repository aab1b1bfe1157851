package dev.kubereconciler.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Records what each controller did, for the {@code controllers} endpoint: reconciles by
 * outcome, rate-limited requeues, limiter delays by source, the keys that keep retrying,
 * a bounded log of the latest limiter decisions, and what each dependent's applies and
 * prunes did.
 */
public class ControllerActivity implements ControllerListener {

	/** Default number of limiter decisions kept per controller. */
	public static final int DEFAULT_EVENT_CAPACITY = 100;

	/** Default number of retrying keys tracked per controller. */
	public static final int DEFAULT_ITEM_CAPACITY = 10_000;

	private static final ControllerTally NONE = ControllerTally.none();

	private final Map<String, ControllerTally> activities = new ConcurrentHashMap<>();

	private final Clock clock;

	private final int eventCapacity;

	private final int itemCapacity;

	/**
	 * Create a recorder with the default capacities on the system clock.
	 */
	public ControllerActivity() {
		this(Clock.systemUTC(), DEFAULT_EVENT_CAPACITY, DEFAULT_ITEM_CAPACITY);
	}

	/**
	 * Create a recorder.
	 * @param clock the clock that time-stamps limiter decisions
	 * @param eventCapacity how many limiter decisions to keep per controller
	 * @param itemCapacity how many retrying keys to track per controller; keys beyond it
	 * still count as retries but are not listed
	 */
	public ControllerActivity(Clock clock, int eventCapacity, int itemCapacity) {
		if (eventCapacity < 0 || itemCapacity < 0) {
			throw new IllegalArgumentException("Capacities must not be negative");
		}
		this.clock = clock;
		this.eventCapacity = eventCapacity;
		this.itemCapacity = itemCapacity;
	}

	@Override
	public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
			@Nullable Throwable error) {
		ControllerTally activity = record(controller);
		activity.outcome(outcome).increment();
		if (outcome == ReconcileOutcome.ERROR && ReconcileOutcome.isConflict(error)) {
			activity.conflicts.increment();
		}
		if (outcome == ReconcileOutcome.SUCCESS || outcome == ReconcileOutcome.REQUEUE_AFTER
				|| outcome == ReconcileOutcome.TERMINAL_ERROR) {
			// these outcomes forget the key's backoff, so it no longer counts as retrying
			activity.retrying.remove(request);
		}
	}

	@Override
	public void limiterDelayed(String controller, Request request, Trigger cause, DelaySource source, Duration delay) {
		ControllerTally activity = record(controller);
		Decision decision = new Decision(request, cause, source, delay, this.clock.instant());
		synchronized (activity) {
			activity.delays(source).add(delay.toNanos());
			if (this.eventCapacity > 0) {
				if (activity.events.size() == this.eventCapacity) {
					activity.events.removeFirst();
				}
				activity.events.addLast(decision);
			}
		}
		if (source != DelaySource.MANAGER) {
			// backoff and bucket decisions are made once per rate-limited requeue, the
			// manager gate's on dispatch
			activity.retries.increment();
			if (activity.retrying.size() < this.itemCapacity || activity.retrying.containsKey(request)) {
				activity.retrying.merge(request, 1L, Long::sum);
			}
		}
	}

	@Override
	public void updateFiltered(String controller, String filter) {
		record(controller).filtered.computeIfAbsent(filter, (name) -> new LongAdder()).increment();
	}

	@Override
	public void sourceKeyAdded(String controller, String source) {
		record(controller).sourceKeys.computeIfAbsent(source, (name) -> new LongAdder()).increment();
	}

	/**
	 * Return how many keys each source added.
	 * @param controller the controller name
	 * @param sources the controller's source names, reported even before they add
	 * anything
	 * @return the counts by source name, also of {@code reconcile-all} once it ran
	 */
	public Map<String, Long> sourceKeys(String controller, Iterable<String> sources) {
		Map<String, Long> keys = new LinkedHashMap<>();
		sources.forEach((source) -> keys.put(source, 0L));
		read(controller).sourceKeys.forEach((source, count) -> keys.put(source, count.sum()));
		return keys;
	}

	@Override
	public void dependentApplied(String controller, String dependent, boolean changed, boolean drift) {
		record(controller).dependent(dependent).applied(changed, drift);
	}

	@Override
	public void dependentPruned(String controller, String dependent) {
		record(controller).dependent(dependent).pruned();
	}

	/**
	 * Return what the applies and prunes of a dependent did.
	 * @param controller the controller name
	 * @param dependent the dependent's name
	 * @return the counts, zero for a dependent that did nothing yet
	 */
	public DependentCounts dependent(String controller, String dependent) {
		DependentTally tally = read(controller).dependents.get(dependent);
		return (tally != null) ? tally.counts() : DependentCounts.NONE;
	}

	/**
	 * Return how many updates each event filter dropped.
	 * @param controller the controller name
	 * @param filters the controller's filter names, reported even before they drop
	 * anything
	 * @return the counts by filter name
	 */
	public Map<String, Long> eventFilterDrops(String controller, Iterable<String> filters) {
		Map<String, Long> drops = new LinkedHashMap<>();
		filters.forEach((filter) -> drops.put(filter, 0L));
		read(controller).filtered.forEach((filter, count) -> drops.put(filter, count.sum()));
		return drops;
	}

	/**
	 * Return how many reconciles failed with a write conflict (HTTP 409) and were
	 * retried.
	 * @param controller the controller name
	 * @return the conflicts
	 */
	public long conflicts(String controller) {
		return read(controller).conflicts.sum();
	}

	/**
	 * Return the counts of reconciles by outcome.
	 * @param controller the controller name
	 * @return the counts
	 */
	public ReconcileCounts reconciles(String controller) {
		ControllerTally activity = read(controller);
		return new ReconcileCounts(activity.count(ReconcileOutcome.SUCCESS),
				activity.count(ReconcileOutcome.ERROR) + activity.count(ReconcileOutcome.PANIC)
						+ activity.count(ReconcileOutcome.TIMEOUT),
				activity.count(ReconcileOutcome.REQUEUE), activity.count(ReconcileOutcome.REQUEUE_AFTER),
				activity.count(ReconcileOutcome.TERMINAL_ERROR));
	}

	/**
	 * Return how many rate-limited requeues a controller made: one per error, panic,
	 * timeout or {@code Result.requeue()}.
	 * @param controller the controller name
	 * @return the rate-limited requeues
	 */
	public long retries(String controller) {
		return read(controller).retries.sum();
	}

	/**
	 * Return statistics of the delays that limiters decided for a controller's keys.
	 * @param controller the controller name
	 * @return the statistics, with every source present
	 */
	public DelayStatistics delays(String controller) {
		ControllerTally activity = read(controller);
		synchronized (activity) {
			Map<String, SourceStatistics> bySource = new LinkedHashMap<>();
			long count = 0;
			long total = 0;
			long max = 0;
			for (Map.Entry<DelaySource, ControllerTally.Delays> entry : activity.delays.entrySet()) {
				ControllerTally.Delays delays = entry.getValue();
				bySource.put(entry.getKey().label(),
						new SourceStatistics(delays.count, seconds(delays.totalNanos), seconds(delays.maxNanos)));
				count += delays.count;
				total += delays.totalNanos;
				max = Math.max(max, delays.maxNanos);
			}
			return new DelayStatistics(count, seconds(total), seconds(max), bySource);
		}
	}

	/**
	 * Return the latest limiter decisions, newest first.
	 * @param controller the controller name
	 * @return the decisions, at most the event capacity
	 */
	public List<Decision> decisions(String controller) {
		ControllerTally activity = read(controller);
		synchronized (activity) {
			List<Decision> decisions = new ArrayList<>(activity.events);
			Collections.reverse(decisions);
			return decisions;
		}
	}

	/**
	 * Return the keys with the most rate-limited requeues since they last succeeded.
	 * @param controller the controller name
	 * @param limit the most keys to return
	 * @return the keys, most retries first
	 */
	public List<RetryingKey> retrying(String controller, int limit) {
		return read(controller).retrying.entrySet()
			.stream()
			.map((entry) -> new RetryingKey(entry.getKey(), entry.getValue()))
			.sorted(Comparator.comparingLong(RetryingKey::retries)
				.reversed()
				.thenComparing((key) -> key.request().key()))
			.limit(limit)
			.toList();
	}

	/**
	 * Stop listing a key as retrying, as after the endpoint forgot its backoff.
	 * @param controller the controller name
	 * @param request the key
	 */
	public void forget(String controller, Request request) {
		ControllerTally activity = this.activities.get(controller);
		if (activity != null) {
			activity.retrying.remove(request);
		}
	}

	private ControllerTally record(String controller) {
		return this.activities.computeIfAbsent(controller, (name) -> new ControllerTally());
	}

	private ControllerTally read(String controller) {
		// reads never create state, so asking about unknown names cannot grow the map
		return this.activities.getOrDefault(controller, NONE);
	}

	private static double seconds(long nanos) {
		return nanos / 1e9;
	}

	/**
	 * Reconciles of one controller by outcome.
	 *
	 * @param success returned {@code Result.done()}
	 * @param error failed and were requeued through the rate limiter: exceptions, panics
	 * and timeouts
	 * @param requeue returned {@code Result.requeue()}
	 * @param requeueAfter returned {@code Result.requeueAfter(d)}
	 * @param terminal failed with a {@code TerminalReconcileException} and were not
	 * requeued
	 */
	public record ReconcileCounts(long success, long error, long requeue, long requeueAfter, long terminal) {

	}

	/**
	 * Limiter delay statistics of one controller.
	 *
	 * @param count how many delays limiters decided, zero delays of rate-limited requeues
	 * included
	 * @param totalSeconds their sum in seconds
	 * @param maxSeconds the longest in seconds
	 * @param bySource the same by source: {@code backoff}, {@code bucket} and
	 * {@code manager}
	 */
	public record DelayStatistics(long count, double totalSeconds, double maxSeconds,
			Map<String, SourceStatistics> bySource) {

	}

	/**
	 * Delay statistics of one source.
	 *
	 * @param count how many delays
	 * @param totalSeconds their sum in seconds
	 * @param maxSeconds the longest in seconds
	 */
	public record SourceStatistics(long count, double totalSeconds, double maxSeconds) {

	}

	/**
	 * One limiter decision.
	 *
	 * @param request the key
	 * @param cause why the key had been added
	 * @param source the limiter the delay is attributed to
	 * @param delay the delay
	 * @param time when the decision was made
	 */
	public record Decision(Request request, Trigger cause, DelaySource source, Duration delay, Instant time) {

	}

	/**
	 * A key that is retrying.
	 *
	 * @param request the key
	 * @param retries its rate-limited requeues since it last succeeded
	 */
	public record RetryingKey(Request request, long retries) {

	}

}
