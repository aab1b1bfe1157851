package dev.kubereconciler.docs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import dev.kubereconciler.ratelimit.BucketReservation;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.time.Ticker;

/**
 * Replays several controllers that share one manager bucket, on a virtual clock, as the
 * manager gate runs them: a free worker takes a key, reserves a token, waits out the
 * reservation's delay on its own thread, then reconciles.
 *
 * <p>
 * Everything is deterministic: events at the same instant run in the order they were
 * scheduled, and the bucket's tokens are sampled after every event of an instant.
 */
public final class SharedBucketSimulation {

	private final double qps;

	private final int burst;

	private final Duration reconcileTime;

	private final Duration horizon;

	private final Duration bucketWidth;

	private final Duration sampleStep;

	private final List<ControllerLoad> controllers = new ArrayList<>();

	/**
	 * Create a simulation.
	 * @param qps the manager bucket's rate
	 * @param burst the manager bucket's burst
	 * @param reconcileTime how long each reconcile takes once admitted
	 * @param horizon how long to simulate
	 * @param bucketWidth the width of a bucket of admissions
	 * @param sampleStep how often to sample the bucket's tokens
	 */
	public SharedBucketSimulation(double qps, int burst, Duration reconcileTime, Duration horizon, Duration bucketWidth,
			Duration sampleStep) {
		this.qps = qps;
		this.burst = burst;
		this.reconcileTime = reconcileTime;
		this.horizon = horizon;
		this.bucketWidth = bucketWidth;
		this.sampleStep = sampleStep;
	}

	/**
	 * Add a controller.
	 * @param load its workers and the keys that arrive
	 * @return this simulation
	 */
	public SharedBucketSimulation controller(ControllerLoad load) {
		this.controllers.add(load);
		return this;
	}

	/**
	 * Run the simulation.
	 * @return admissions per controller and bucket, and the sampled tokens
	 */
	public Result run() {
		VirtualTicker clock = new VirtualTicker();
		TokenBucketRateLimiter<Object> bucket = RateLimiters.bucket(this.qps, this.burst, clock);
		long horizonNanos = this.horizon.toNanos();
		long width = this.bucketWidth.toNanos();
		int buckets = (int) ((horizonNanos + width - 1) / width);
		Map<String, long[]> admissions = new LinkedHashMap<>();
		List<ControllerState> states = new ArrayList<>();
		PriorityQueue<Event> events = new PriorityQueue<>(
				Comparator.comparingLong(Event::at).thenComparingInt(Event::order).thenComparingLong(Event::sequence));
		long[] sequence = { 0 };
		for (ControllerLoad load : this.controllers) {
			ControllerState state = new ControllerState(load, new long[buckets]);
			states.add(state);
			admissions.put(load.name(), state.admissions);
			for (Arrival arrival : load.arrivals()) {
				events.add(new Event(arrival.at().toNanos(), 0, sequence[0]++, state, arrival.keys()));
			}
		}
		List<Double> tokens = new ArrayList<>();
		for (long at = 0; at <= horizonNanos; at += this.sampleStep.toNanos()) {
			events.add(new Event(at, 1, sequence[0]++, null, 0));
		}
		while (!events.isEmpty()) {
			Event event = events.poll();
			if (event.at() > horizonNanos) {
				break;
			}
			clock.now = event.at();
			if (event.controller() == null) {
				tokens.add(bucket.tokens());
				continue;
			}
			ControllerState state = event.controller();
			if (event.keys() > 0) {
				state.pending += event.keys();
			}
			else {
				state.busy--;
			}
			while (state.busy < state.load.workers() && state.pending > 0) {
				state.pending--;
				state.busy++;
				BucketReservation reservation = bucket.reserve();
				long admitted = event.at() + reservation.delayNanos();
				if (admitted < horizonNanos) {
					state.admissions[(int) (admitted / width)]++;
				}
				events.add(new Event(admitted + this.reconcileTime.toNanos(), 0, sequence[0]++, state, 0));
			}
		}
		Map<String, List<Long>> perController = new LinkedHashMap<>();
		admissions.forEach((name, counts) -> perController.put(name, toList(counts)));
		return new Result(this.bucketWidth, perController, this.sampleStep, tokens);
	}

	private static List<Long> toList(long[] counts) {
		List<Long> list = new ArrayList<>(counts.length);
		for (long count : counts) {
			list.add(count);
		}
		return list;
	}

	/**
	 * One controller's workers and the keys added to its queue.
	 *
	 * @param name the controller name
	 * @param workers its max-concurrent-reconciles
	 * @param arrivals when keys arrive, and how many
	 */
	public record ControllerLoad(String name, int workers, List<Arrival> arrivals) {

		/**
		 * Return a load of {@code keysPerSecond} evenly spaced keys from 0 to
		 * {@code until}.
		 * @param name the controller name
		 * @param workers its workers
		 * @param keysPerSecond keys per second
		 * @param until when the keys stop
		 * @return the load
		 */
		public static ControllerLoad steady(String name, int workers, int keysPerSecond, Duration until) {
			List<Arrival> arrivals = new ArrayList<>();
			long step = 1_000_000_000L / keysPerSecond;
			for (long at = 0; at < until.toNanos(); at += step) {
				arrivals.add(new Arrival(Duration.ofNanos(at), 1));
			}
			return new ControllerLoad(name, workers, arrivals);
		}

	}

	/**
	 * Keys added at one instant.
	 *
	 * @param at when
	 * @param keys how many
	 */
	public record Arrival(Duration at, int keys) {

	}

	/**
	 * What the simulation observed.
	 *
	 * @param bucketWidth the width of each admissions bucket
	 * @param admissions reconciles admitted per bucket, by controller
	 * @param sampleStep the time between two token samples
	 * @param tokens the manager bucket's tokens at 0, sampleStep, 2·sampleStep…; negative
	 * is debt
	 */
	public record Result(Duration bucketWidth, Map<String, List<Long>> admissions, Duration sampleStep,
			List<Double> tokens) {

	}

	private static final class ControllerState {

		private final ControllerLoad load;

		private final long[] admissions;

		private long pending;

		private int busy;

		ControllerState(ControllerLoad load, long[] admissions) {
			this.load = load;
			this.admissions = admissions;
		}

	}

	// order 0: arrivals and finished reconciles; order 1: token samples, after them
	private record Event(long at, int order, long sequence, ControllerState controller, int keys) {

	}

	private static final class VirtualTicker implements Ticker {

		private long now;

		@Override
		public long read() {
			return this.now;
		}

	}

}
