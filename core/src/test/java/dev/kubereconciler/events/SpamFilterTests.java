package dev.kubereconciler.events;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SpamFilter}, client-go's per source and object token bucket.
 */
class SpamFilterTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private final SpamFilter filter = new SpamFilter();

	@Test
	void acceptsABurstOf25ThenOneEveryFiveMinutes() {
		for (int i = 0; i < 25; i++) {
			assertThat(this.filter.tryAccept("pod-a", START)).as("event %d", i + 1).isTrue();
		}
		assertThat(this.filter.tryAccept("pod-a", START)).isFalse();
		Instant almost = START.plus(Duration.ofMinutes(5)).minusNanos(1);
		assertThat(this.filter.tryAccept("pod-a", almost)).isFalse();
		Instant refilled = START.plus(Duration.ofMinutes(5));
		assertThat(this.filter.tryAccept("pod-a", refilled)).isTrue();
		assertThat(this.filter.tryAccept("pod-a", refilled)).isFalse();
		assertThat(this.filter.tryAccept("pod-a", refilled.plus(Duration.ofMinutes(5)))).isTrue();
	}

	@Test
	void refillsNoMoreThanTheBurst() {
		for (int i = 0; i < 25; i++) {
			this.filter.tryAccept("pod-a", START);
		}
		Instant muchLater = START.plus(Duration.ofDays(1));
		int accepted = 0;
		while (this.filter.tryAccept("pod-a", muchLater)) {
			accepted++;
		}
		assertThat(accepted).isEqualTo(25);
	}

	@Test
	void eachKeyHasItsOwnBucket() {
		for (int i = 0; i < 25; i++) {
			this.filter.tryAccept("pod-a", START);
		}
		assertThat(this.filter.tryAccept("pod-a", START)).isFalse();
		assertThat(this.filter.tryAccept("pod-b", START)).isTrue();
	}

}
