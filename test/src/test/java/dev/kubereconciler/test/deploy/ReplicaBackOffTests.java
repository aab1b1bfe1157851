package dev.kubereconciler.test.deploy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pod runner's back-off after a container exits, as the kubelet's: 10 s doubling, and
 * back to 10 s once a container ran for 10 minutes.
 */
class ReplicaBackOffTests {

	@TempDir
	Path folder;

	private final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T00:00:00Z"));

	@Test
	void theBackOffDoublesAfterEachRestartAndStartsAgainAfterTenMinutesOfRunning() {
		Replica replica = new Replica(
				new PodIdentity("crashing-0", "default", "uid-0", "127.0.0.1", "default", Map.of(), Map.of()),
				List.of("sh", "-c", "exit 3"), Map::of, this.folder.resolve("crashing.log"), Duration.ofSeconds(1),
				this.clock, new ReplicaProbes(null, null, null));
		replica.start();
		try {
			assertThat(backOffAfterExit(replica, Duration.ZERO)).isEqualTo(Duration.ofSeconds(10));
			assertThat(backOffAfterExit(replica, Duration.ZERO)).isEqualTo(Duration.ofSeconds(20));
			assertThat(backOffAfterExit(replica, Duration.ZERO)).isEqualTo(Duration.ofSeconds(40));
			// this time it ran 10 minutes before it exited
			assertThat(backOffAfterExit(replica, Duration.ofMinutes(10))).isEqualTo(Duration.ofSeconds(10));
			assertThat(replica.restartCount()).isEqualTo(4);
		}
		finally {
			replica.kill();
		}
	}

	// how long after the exit the runner restarts it, read off the clock: no restart a
	// second before the back-off ends, a restart at its end
	private Duration backOffAfterExit(Replica replica, Duration ranFor) {
		this.clock.advance(ranFor);
		await().until(() -> !replica.isRunning());
		Instant exited = this.clock.instant();
		assertThat(replica.tick(exited)).isNull();
		Duration backOff = Duration.ofSeconds(10);
		while (replica.tick(exited.plus(backOff)) == null) {
			assertThat(backOff).isLessThan(Duration.ofMinutes(5));
			backOff = backOff.multipliedBy(2);
		}
		assertThat(replica.tick(exited.plus(backOff).minusSeconds(1))).isNull();
		this.clock.set(exited.plus(backOff));
		replica.restart("its process exited");
		return backOff;
	}

	private static final class SettableClock extends Clock {

		private volatile Instant now;

		SettableClock(Instant now) {
			this.now = now;
		}

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		void set(Instant instant) {
			this.now = instant;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

	}

}
