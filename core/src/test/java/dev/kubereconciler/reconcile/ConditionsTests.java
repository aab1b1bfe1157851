package dev.kubereconciler.reconcile;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.models.V1Condition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Conditions}, with apimachinery's {@code meta.SetStatusCondition}
 * rules.
 */
class ConditionsTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final List<V1Condition> conditions = new ArrayList<>();

	@Test
	void newConditionGetsTheClocksTimeAndTheGeneration() {
		assertThat(Conditions.set(this.conditions, ready("True", "Up"), 3L, at(T0))).isTrue();
		assertThat(this.conditions).singleElement().satisfies((condition) -> {
			assertThat(condition.getLastTransitionTime()).isEqualTo(OffsetDateTime.ofInstant(T0, ZoneOffset.UTC));
			assertThat(condition.getObservedGeneration()).isEqualTo(3L);
			assertThat(condition.getReason()).isEqualTo("Up");
		});
	}

	@Test
	void sameStatusKeepsTheTransitionTimeButTakesReasonMessageAndGeneration() {
		Conditions.set(this.conditions, ready("True", "Up"), 1L, at(T0));
		V1Condition update = ready("True", "StillUp").message("fine");
		assertThat(Conditions.set(this.conditions, update, 2L, at(T0.plusSeconds(60)))).isTrue();
		V1Condition condition = this.conditions.get(0);
		assertThat(condition.getLastTransitionTime()).isEqualTo(OffsetDateTime.ofInstant(T0, ZoneOffset.UTC));
		assertThat(condition.getReason()).isEqualTo("StillUp");
		assertThat(condition.getMessage()).isEqualTo("fine");
		assertThat(condition.getObservedGeneration()).isEqualTo(2L);
	}

	@Test
	void statusChangeMovesTheTransitionTime() {
		Conditions.set(this.conditions, ready("True", "Up"), 1L, at(T0));
		Conditions.set(this.conditions, ready("False", "Down"), 1L, at(T0.plusSeconds(90)));
		assertThat(this.conditions).singleElement()
			.satisfies((condition) -> assertThat(condition.getLastTransitionTime())
				.isEqualTo(OffsetDateTime.ofInstant(T0.plusSeconds(90), ZoneOffset.UTC)));
		assertThat(Conditions.isTrue(this.conditions, "Ready")).isFalse();
	}

	@Test
	void settingTheSameConditionAgainChangesNothing() {
		Conditions.set(this.conditions, ready("True", "Up"), 1L, at(T0));
		assertThat(Conditions.set(this.conditions, ready("True", "Up"), 1L, at(T0.plusSeconds(5)))).isFalse();
		assertThat(Conditions.remove(this.conditions, "Ready")).isTrue();
		assertThat(this.conditions).isEmpty();
	}

	private static V1Condition ready(String status, String reason) {
		return new V1Condition().type("Ready").status(status).reason(reason);
	}

	private static Clock at(Instant instant) {
		return Clock.fixed(instant, ZoneOffset.UTC);
	}

}
