package dev.kubereconciler.actuate;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.kubereconciler.actuate.ControllerActivity.Decision;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.reconcile.Request;

/**
 * The running counts and logs of one controller, written by its reconciles and limiter
 * decisions and read by the {@code controllers} endpoint through
 * {@link ControllerActivity}.
 */
final class ControllerTally {

	final Map<ReconcileOutcome, LongAdder> outcomes;

	final LongAdder retries = new LongAdder();

	final LongAdder conflicts = new LongAdder();

	final Map<String, LongAdder> filtered = new ConcurrentHashMap<>();

	final Map<String, DependentTally> dependents = new ConcurrentHashMap<>();

	final Map<String, LongAdder> sourceKeys = new ConcurrentHashMap<>();

	// guarded by this ControllerTally, like events
	final Map<DelaySource, Delays> delays;

	final Deque<Decision> events;

	final Map<Request, Long> retrying;

	ControllerTally() {
		this.outcomes = new EnumMap<>(ReconcileOutcome.class);
		for (ReconcileOutcome outcome : ReconcileOutcome.values()) {
			this.outcomes.put(outcome, new LongAdder());
		}
		this.delays = new EnumMap<>(DelaySource.class);
		for (DelaySource source : DelaySource.values()) {
			this.delays.put(source, new Delays());
		}
		this.events = new ArrayDeque<>();
		this.retrying = new ConcurrentHashMap<>();
	}

	private ControllerTally(ControllerTally empty) {
		this.outcomes = Collections.unmodifiableMap(empty.outcomes);
		this.delays = Collections.unmodifiableMap(empty.delays);
		// only record() appends events, and it never hands out this instance
		this.events = new ArrayDeque<>(0);
		this.retrying = Collections.emptyMap();
	}

	/**
	 * Return the activity of a controller that recorded nothing, which reads of unknown
	 * names share and which therefore must never change.
	 */
	static ControllerTally none() {
		return new ControllerTally(new ControllerTally());
	}

	long count(ReconcileOutcome outcome) {
		return outcome(outcome).sum();
	}

	// both constructors fill the outcomes and the delays with every constant
	LongAdder outcome(ReconcileOutcome outcome) {
		return Objects.requireNonNull(this.outcomes.get(outcome));
	}

	Delays delays(DelaySource source) {
		return Objects.requireNonNull(this.delays.get(source));
	}

	DependentTally dependent(String name) {
		DependentTally tally = this.dependents.get(name);
		return (tally != null) ? tally : this.dependents.computeIfAbsent(name, (key) -> new DependentTally());
	}

	static final class Delays {

		long count;

		long totalNanos;

		long maxNanos;

		void add(long nanos) {
			this.count++;
			this.totalNanos += nanos;
			this.maxNanos = Math.max(this.maxNanos, nanos);
		}

	}

}
