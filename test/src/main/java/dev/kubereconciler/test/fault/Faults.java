package dev.kubereconciler.test.fault;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.random.RandomGenerator;

import dev.kubereconciler.time.Sleeper;

/**
 * The faults a {@link FaultProxy} applies now, read by every connection's pumps.
 */
final class Faults {

	private static final long HOLD_STEP_NANOS = Duration.ofMillis(5).toNanos();

	private final Sleeper sleeper;

	private final RandomGenerator random;

	private final Map<Direction, Latency> latency = new EnumMap<>(Direction.class);

	private final Map<Direction, Long> bytesPerSecond = new EnumMap<>(Direction.class);

	private long blackHoleUntil;

	private boolean blackHole;

	Faults(Sleeper sleeper, RandomGenerator random) {
		this.sleeper = sleeper;
		this.random = random;
	}

	synchronized void latency(Direction direction, Duration base, Duration jitter) {
		this.latency.put(direction, new Latency(base.toNanos(), jitter.toNanos()));
	}

	synchronized void bandwidth(Direction direction, long bytesPerSecond) {
		this.bytesPerSecond.put(direction, bytesPerSecond);
	}

	synchronized void blackHole(Duration duration) {
		this.blackHole = true;
		this.blackHoleUntil = this.sleeper.read() + duration.toNanos();
	}

	synchronized void heal() {
		this.latency.clear();
		this.bytesPerSecond.clear();
		this.blackHole = false;
	}

	synchronized boolean isBlackHole() {
		if (this.blackHole && this.sleeper.read() - this.blackHoleUntil >= 0) {
			this.blackHole = false;
		}
		return this.blackHole;
	}

	/**
	 * Wait, on the injected sleeper, while a black hole lasts; in short steps, so that a
	 * {@link #heal()} is seen soon and a manual sleeper advances its own time.
	 */
	void holdWhileBlackHole() throws InterruptedException {
		while (isBlackHole()) {
			this.sleeper.sleep(HOLD_STEP_NANOS);
		}
	}

	/**
	 * Return when a chunk read now should be sent on, by the latency and jitter of its
	 * direction.
	 */
	synchronized long dueTime(Direction direction) {
		Latency latency = this.latency.get(direction);
		long now = this.sleeper.read();
		if (latency == null) {
			return now;
		}
		long jitter = (latency.jitterNanos() > 0) ? this.random.nextLong(latency.jitterNanos() + 1) : 0;
		return now + latency.baseNanos() + jitter;
	}

	/**
	 * Return how long sending a chunk of the given size takes under the bandwidth cap of
	 * its direction.
	 */
	synchronized long transmitNanos(Direction direction, int bytes) {
		Long cap = this.bytesPerSecond.get(direction);
		return (cap == null) ? 0 : bytes * 1_000_000_000L / cap;
	}

	Sleeper sleeper() {
		return this.sleeper;
	}

	private record Latency(long baseNanos, long jitterNanos) {
	}

}
