package dev.kubereconciler.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.ratelimit.Ticker;
import dev.kubereconciler.reconcile.Request;

/**
 * Records what each controller did, for the {@code controllers} endpoint: reconcile counts by
 * outcome, limiter delay statistics by source, the keys that are retrying, and a bounded log of
 * the latest limiter decisions.
 */
public class ControllerActivity implements ControllerListener {

	/** Default number of limiter decisions kept per controller. */
	public static final int DEFAULT_EVENT_CAPACITY = 100;

	/** Default number of retrying keys tracked per controller. */
	public static final int DEFAULT_ITEM_CAPACITY = 10_000;

	private final Map<String, Activity> activities = new ConcurrentHashMap<>();

	private final Ticker ticker;

	private final int eventCapacity;

	private final int itemCapacity;

	public ControllerActivity() {
		this(Ticker.system(), DEFAULT_EVENT_CAPACITY, DEFAULT_ITEM_CAPACITY);
	}

	public ControllerActivity(Ticker ticker, int eventCapacity, int itemCapacity) {
		this.ticker = ticker;
		this.eventCapacity = eventCapacity;
		this.itemCapacity = itemCapacity;
	}

	private Activity activity(String controller) {
		return this.activities.computeIfAbsent(controller, (name) -> new Activity());
	}

	@Override
	public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
			Throwable error) {
		Activity activity = activity(controller);
		activity.outcomes.get(outcome).increment();
		if (outcome == ReconcileOutcome.SUCCESS || outcome == ReconcileOutcome.REQUEUE_AFTER
				|| outcome == ReconcileOutcome.TERMINAL_ERROR) {
			activity.retrying.remove(request);
		}
	}

	@Override
	public void limiterDelayed(String controller, Request request, AddCause cause, DelaySource source,
			Duration delay) {
		Activity activity = activity(controller);
		long now = this.ticker.read();
		synchronized (activity) {
			activity.delayCount++;
			activity.delayTotalNanos += delay.toNanos();
			activity.delayMaxNanos = Math.max(activity.delayMaxNanos, delay.toNanos());
			activity.bySource.merge(source, delay.toNanos(), Long::sum);
			activity.countBySource.merge(source, 1L, Long::sum);
			activity.events.addLast(new Decision(request.key(), cause, source, delay, Instant.now()));
			while (activity.events.size() > this.eventCapacity) {
				activity.events.removeFirst();
			}
		}
		if (source == DelaySource.BACKOFF || source == DelaySource.BUCKET) {
			if (activity.retrying.size() < this.itemCapacity || activity.retrying.containsKey(request)) {
				activity.retrying.compute(request,
						(key, previous) -> new Retry(((previous != null) ? previous.retries() : 0) + 1,
								now + delay.toNanos()));
			}
		}
	}

	/**
	 * Return the counts of reconciles by outcome.
	 * @param controller the controller name
	 * @return counts keyed by {@code success}, {@code error}, {@code requeue},
	 * {@code requeueAfter} and {@code terminal}
	 */
	public Map<String, Long> reconciles(String controller) {
		Activity activity = activity(controller);
		Map<String, Long> counts = new LinkedHashMap<>();
		counts.put("success", activity.count(ReconcileOutcome.SUCCESS));
		counts.put("error", activity.count(ReconcileOutcome.ERROR) + activity.count(ReconcileOutcome.PANIC)
				+ activity.count(ReconcileOutcome.TIMEOUT));
		counts.put("requeue", activity.count(ReconcileOutcome.REQUEUE));
		counts.put("requeueAfter", activity.count(ReconcileOutcome.REQUEUE_AFTER));
		counts.put("terminal", activity.count(ReconcileOutcome.TERMINAL_ERROR));
		return counts;
	}

	/**
	 * Return statistics of the delays limiters imposed on a controller's keys.
	 * @param controller the controller name
	 * @return the statistics
	 */
	public DelayStatistics delays(String controller) {
		Activity activity = activity(controller);
		synchronized (activity) {
			Map<String, SourceStatistics> bySource = new LinkedHashMap<>();
			activity.countBySource.forEach((source, count) -> bySource.put(source.label(),
					new SourceStatistics(count, activity.bySource.get(source) / 1e9)));
			return new DelayStatistics(activity.delayCount, activity.delayTotalNanos / 1e9,
					activity.delayMaxNanos / 1e9, bySource);
		}
	}

	/**
	 * Return the latest limiter decisions, oldest first.
	 * @param controller the controller name
	 * @return the decisions
	 */
	public List<Decision> events(String controller) {
		Activity activity = activity(controller);
		synchronized (activity) {
			return new ArrayList<>(activity.events);
		}
	}

	/**
	 * Return the retrying keys with the most retries.
	 * @param controller the controller name
	 * @param limit the most keys to return
	 * @return the keys, most retries first
	 */
	public List<RetryingItem> retrying(String controller, int limit) {
		long now = this.ticker.read();
		return activity(controller).retrying.entrySet()
			.stream()
			.sorted(Comparator.comparingLong((Map.Entry<Request, Retry> entry) -> entry.getValue().retries())
				.reversed())
			.limit(limit)
			.map((entry) -> new RetryingItem(entry.getKey().key(), entry.getValue().retries(),
					Math.max(0, entry.getValue().nextAttemptAt() - now) / 1e9))
			.toList();
	}

	/**
	 * Forget what is recorded for one key, as after the endpoint's forget operation.
	 * @param controller the controller name
	 * @param request the key
	 */
	public void forget(String controller, Request request) {
		activity(controller).retrying.remove(request);
	}

	/**
	 * A limiter decision.
	 *
	 * @param key the {@code namespace/name} key
	 * @param cause why the key was added
	 * @param source the limiter the delay is attributed to
	 * @param delay the delay
	 * @param time when the decision was made
	 */
	public record Decision(String key, AddCause cause, DelaySource source, Duration delay, Instant time) {

	}

	/**
	 * A key that is retrying.
	 *
	 * @param key the {@code namespace/name} key
	 * @param numRequeues how many rate-limited requeues since its last success
	 * @param nextAttemptInSeconds seconds until its next attempt, 0 when due
	 */
	public record RetryingItem(String key, long numRequeues, double nextAttemptInSeconds) {

	}

	/**
	 * Limiter delay statistics of one controller.
	 *
	 * @param count how many delays were imposed
	 * @param totalSeconds their sum
	 * @param maxSeconds the longest
	 * @param bySource count and sum by source
	 */
	public record DelayStatistics(long count, double totalSeconds, double maxSeconds,
			Map<String, SourceStatistics> bySource) {

	}

	/**
	 * Delay statistics of one source.
	 *
	 * @param count how many delays
	 * @param totalSeconds their sum
	 */
	public record SourceStatistics(long count, double totalSeconds) {

	}

	private record Retry(long retries, long nextAttemptAt) {

	}

	private static final class Activity {

		final Map<ReconcileOutcome, LongAdder> outcomes = new EnumMap<>(ReconcileOutcome.class);

		final Map<DelaySource, Long> bySource = new EnumMap<>(DelaySource.class);

		final Map<DelaySource, Long> countBySource = new EnumMap<>(DelaySource.class);

		final ArrayDeque<Decision> events = new ArrayDeque<>();

		final Map<Request, Retry> retrying = new ConcurrentHashMap<>();

		long delayCount;

		long delayTotalNanos;

		long delayMaxNanos;

		Activity() {
			for (ReconcileOutcome outcome : ReconcileOutcome.values()) {
				this.outcomes.put(outcome, new LongAdder());
			}
		}

		long count(ReconcileOutcome outcome) {
			return this.outcomes.get(outcome).sum();
		}

	}

}
