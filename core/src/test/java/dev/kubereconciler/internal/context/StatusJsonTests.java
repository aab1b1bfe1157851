package dev.kubereconciler.internal.context;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1Condition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StatusJson}: statuses compare as the server would store them.
 */
class StatusJsonTests {

	@Test
	void plainClassesWithoutEqualsCompareByWhatTheySerializeTo() {
		Plain stored = new Plain("red", 3, Map.of("tier", 2.0), List.of(new V1Condition().type("Ready")));
		Plain written = new Plain("red", 3, Map.of("tier", 2), List.of(new V1Condition().type("Ready")));
		assertThat(stored).isNotEqualTo(written);
		assertThat(StatusJson.same(stored, written)).isTrue();
	}

	@Test
	void anyChangedAddedOrRemovedValueIsADifference() {
		Plain stored = new Plain("red", 3, Map.of("tier", 2), List.of());
		assertThat(StatusJson.same(stored, new Plain("blue", 3, Map.of("tier", 2), List.of()))).isFalse();
		assertThat(StatusJson.same(stored, new Plain("red", 4, Map.of("tier", 2), List.of()))).isFalse();
		assertThat(StatusJson.same(stored, new Plain("red", 3, Map.of("tier", 2.5), List.of()))).isFalse();
		assertThat(StatusJson.same(stored, new Plain("red", 3, Map.of("tier", "2"), List.of()))).isFalse();
		// a PUT replaces the status: a field left out is removed
		assertThat(StatusJson.same(stored, new Plain(null, 3, Map.of("tier", 2), List.of()))).isFalse();
		assertThat(StatusJson.same(stored, new Plain("red", 3, Map.of(), List.of()))).isFalse();
		assertThat(StatusJson.same(stored, new Plain("red", 3, Map.of("tier", 2), List.of(new V1Condition()))))
			.isFalse();
	}

	@Test
	void noStatusIsOnlyTheSameAsNoStatus() {
		assertThat(StatusJson.same(null, null)).isTrue();
		assertThat(StatusJson.same(null, new Plain(null, 0, Map.of(), List.of()))).isFalse();
		assertThat(StatusJson.same(new Plain(null, 0, Map.of(), List.of()), null)).isFalse();
	}

	static class Plain {

		String color;

		int replicas;

		Map<String, Object> details;

		List<V1Condition> conditions;

		Plain(String color, int replicas, Map<String, Object> details, List<V1Condition> conditions) {
			this.color = color;
			this.replicas = replicas;
			this.details = details;
			this.conditions = conditions;
		}

	}

}
