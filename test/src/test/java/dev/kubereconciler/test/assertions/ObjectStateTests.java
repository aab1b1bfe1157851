package dev.kubereconciler.test.assertions;

import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How failure messages show an object: as YAML, without {@code managedFields}, with
 * numbers as written.
 */
class ObjectStateTests {

	@Test
	void objectIsShownAsYamlWithoutManagedFields() {
		ObjectState state = ObjectState.found(JsonParser.parseString("""
				{"kind":"Widget","metadata":{"name":"w","managedFields":[{"manager":"kubectl"}]},
				 "status":{"replicas":3,"ratio":0.5,"ready":true}}
				""").getAsJsonObject());
		assertThat(state.describe()).isEqualTo("""

				Its last state:
				  kind: Widget
				  metadata:
				    name: w
				  status:
				    replicas: 3
				    ratio: 0.5
				    ready: true""");
	}

	@Test
	void goneAndFailedReadsSaySo() {
		assertThat(ObjectState.gone().describe()).isEqualTo("\nThe object does not exist.");
		assertThat(ObjectState.failed("403 forbidden").describe()).isEqualTo("\nThe last read failed: 403 forbidden");
	}

}
