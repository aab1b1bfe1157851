package dev.kubereconciler.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PeriodicLoop}, client-go's {@code wait.Until} on a manual clock.
 */
class PeriodicLoopTests {

	private static final Duration PERIOD = Duration.ofMinutes(6);

	private final ManualClock clock = new ManualClock();

	private final List<Duration> runs = new ArrayList<>();

	@Test
	void thePeriodCountsFromTheEndOfTheRunBefore() {
		PeriodicLoop loop = new PeriodicLoop(this.clock, PERIOD, () -> {
			this.runs.add(Duration.ofNanos(this.clock.read()));
			// the run itself takes a minute
			this.clock.advanceWithoutRunning(Duration.ofMinutes(1));
		}, "job");
		loop.start();
		this.clock.advance(PERIOD.minusNanos(1));
		assertThat(this.runs).isEmpty();
		this.clock.advance(Duration.ofNanos(1));
		assertThat(this.runs).containsExactly(PERIOD);
		// the run ended at 7 minutes, so the next is due at 13
		this.clock.advance(Duration.ofMinutes(6).minusNanos(1));
		assertThat(this.runs).hasSize(1);
		this.clock.advance(Duration.ofNanos(1));
		assertThat(this.runs).containsExactly(PERIOD, Duration.ofMinutes(13));
	}

	@Test
	void aRunThatThrowsDoesNotEndTheLoop() {
		PeriodicLoop loop = new PeriodicLoop(this.clock, PERIOD, () -> {
			this.runs.add(Duration.ofNanos(this.clock.read()));
			throw new IllegalStateException("the job failed");
		}, "job");
		loop.start();
		this.clock.advance(PERIOD);
		this.clock.advance(PERIOD);
		assertThat(this.runs).containsExactly(PERIOD, PERIOD.multipliedBy(2));
	}

	@Test
	void stopCancelsTheNextRun() {
		PeriodicLoop loop = new PeriodicLoop(this.clock, PERIOD, () -> this.runs.add(PERIOD), "job");
		loop.start();
		this.clock.advance(PERIOD);
		loop.stop();
		assertThat(this.clock.pending()).isZero();
		this.clock.advance(PERIOD);
		assertThat(this.runs).hasSize(1);
	}

}
