package dev.kubereconciler.test.fault;

import java.time.Duration;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.time.Sleeper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The faults' timing on a manual sleeper: exact delays, black holes that end when their
 * time has passed, and a heal that removes everything.
 */
class FaultsTests {

	private final ManualSleeper sleeper = new ManualSleeper();

	private final Faults faults = new Faults(this.sleeper, new SplittableRandom(42));

	@Test
	void latencyDelaysByTheBaseAndAtMostTheJitter() {
		this.faults.latency(Direction.TO_CLIENT, Duration.ofMillis(300), Duration.ZERO);
		assertThat(this.faults.dueTime(Direction.TO_CLIENT)).isEqualTo(Duration.ofMillis(300).toNanos());
		assertThat(this.faults.dueTime(Direction.TO_SERVER)).isZero();
		this.faults.latency(Direction.TO_SERVER, Duration.ofMillis(100), Duration.ofMillis(50));
		for (int i = 0; i < 100; i++) {
			assertThat(this.faults.dueTime(Direction.TO_SERVER)).isBetween(Duration.ofMillis(100).toNanos(),
					Duration.ofMillis(150).toNanos());
		}
	}

	@Test
	void bandwidthCapTimesEachChunkBySize() {
		this.faults.bandwidth(Direction.TO_CLIENT, 1000);
		assertThat(this.faults.transmitNanos(Direction.TO_CLIENT, 500)).isEqualTo(Duration.ofMillis(500).toNanos());
		assertThat(this.faults.transmitNanos(Direction.TO_SERVER, 500)).isZero();
	}

	@Test
	void blackHoleHoldsUntilItsTimeHasPassed() throws InterruptedException {
		this.faults.blackHole(Duration.ofSeconds(3));
		assertThat(this.faults.isBlackHole()).isTrue();
		this.faults.holdWhileBlackHole();
		assertThat(this.sleeper.read()).isBetween(Duration.ofSeconds(3).toNanos(),
				Duration.ofSeconds(3).plusMillis(5).toNanos());
		assertThat(this.faults.isBlackHole()).isFalse();
	}

	@Test
	void healRemovesEveryFault() {
		this.faults.latency(Direction.TO_CLIENT, Duration.ofSeconds(1), Duration.ZERO);
		this.faults.bandwidth(Direction.TO_CLIENT, 1);
		this.faults.blackHole(Duration.ofHours(1));
		this.faults.heal();
		assertThat(this.faults.isBlackHole()).isFalse();
		assertThat(this.faults.dueTime(Direction.TO_CLIENT)).isZero();
		assertThat(this.faults.transmitNanos(Direction.TO_CLIENT, 1000)).isZero();
	}

	/**
	 * A sleeper whose sleeps advance its own time at once.
	 */
	private static final class ManualSleeper implements Sleeper {

		private long now;

		@Override
		public synchronized long read() {
			return this.now;
		}

		@Override
		public synchronized void sleep(long nanos) {
			this.now += Math.max(nanos, 0);
		}

	}

}
