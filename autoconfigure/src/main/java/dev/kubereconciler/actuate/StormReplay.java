package dev.kubereconciler.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import dev.kubereconciler.actuate.ControllersEndpoint.SimulationDescriptor;
import dev.kubereconciler.ratelimit.RateLimiterState;
import dev.kubereconciler.ratelimit.StormSimulator;

/**
 * A failure storm replayed against a fresh copy of a controller's configured limiter, on
 * a virtual clock, for the {@code controllers} endpoint's {@code simulate} operation.
 *
 * @param items how many keys fail on every attempt from time 0
 * @param seconds how long to simulate
 */
record StormReplay(int items, int seconds) {

	static final int DEFAULT_SIMULATED_ITEMS = 1000;

	static final int DEFAULT_SIMULATED_SECONDS = 60;

	static final int MAX_SIMULATED_ITEMS = 100_000;

	static final int MAX_SIMULATED_SECONDS = 3_600;

	// a limiter that never delays would retry forever at one instant; this bounds
	// the work
	static final long MAX_SIMULATED_ATTEMPTS = 5_000_000;

	/**
	 * Check the arguments of a replay, taking the defaults for those not given.
	 * @param items the keys, {@value #DEFAULT_SIMULATED_ITEMS} when {@code null}
	 * @param seconds the simulated time, {@value #DEFAULT_SIMULATED_SECONDS} when
	 * {@code null}
	 * @return the replay
	 */
	static StormReplay of(@Nullable Integer items, @Nullable Integer seconds) {
		return new StormReplay(within("items", (items != null) ? items : DEFAULT_SIMULATED_ITEMS, MAX_SIMULATED_ITEMS),
				within("seconds", (seconds != null) ? seconds : DEFAULT_SIMULATED_SECONDS, MAX_SIMULATED_SECONDS));
	}

	SimulationDescriptor run(String name, RateLimiterState state) {
		StormSimulator simulator = new StormSimulator(this.items, Duration.ofSeconds(this.seconds),
				Duration.ofSeconds(1), MAX_SIMULATED_ATTEMPTS);
		try {
			StormSimulator.Storm storm = simulator.run(state::rebuild);
			List<Long> requeues = new ArrayList<>(storm.attempts());
			// every key's first attempt happens at time 0 and is not a requeue
			requeues.set(0, requeues.get(0) - this.items);
			return new SimulationDescriptor(name, this.items, this.seconds, state, requeues,
					storm.total() - this.items);
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			throw new InvalidEndpointRequestException(
					"Cannot simulate the limiter of controller '" + name + "': " + ex.getMessage(),
					"Cannot simulate this limiter");
		}
	}

	private static int within(String name, int value, int max) {
		if (value < 1 || value > max) {
			throw new InvalidEndpointRequestException(name + " must be between 1 and " + max + ", was " + value,
					"Invalid " + name);
		}
		return value;
	}

}
