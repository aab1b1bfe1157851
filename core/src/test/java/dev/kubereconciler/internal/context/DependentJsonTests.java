package dev.kubereconciler.internal.context;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether an object already holds a desired state, the ApplySet id and the desired-state
 * hash.
 */
class DependentJsonTests {

	@Test
	void fieldsTheServerOrOthersAddedAreIgnoredButAChangedManagedFieldIsNot() {
		JsonObject desired = json("{\"data\":{\"a\":\"1\"},\"spec\":{\"ports\":[{\"port\":80}]}}");
		assertThat(DependentJson.covers(
				json("{\"data\":{\"a\":\"1\",\"b\":\"2\"},\"spec\":{\"ports\":[{\"port\":80,\"protocol\":\"TCP\"}]}}"),
				desired))
			.isTrue();
		assertThat(DependentJson.covers(json("{\"data\":{\"a\":\"2\"},\"spec\":{\"ports\":[{\"port\":80}]}}"), desired))
			.isFalse();
		assertThat(DependentJson.covers(json("{\"data\":{\"a\":\"1\"}}"), desired)).isFalse();
		// a list of another length is not the desired list
		assertThat(DependentJson
			.covers(json("{\"data\":{\"a\":\"1\"},\"spec\":{\"ports\":[{\"port\":80},{\"port\":81}]}}"), desired))
			.isFalse();
	}

	@Test
	void numbersCompareByValue() {
		assertThat(DependentJson.covers(json("{\"replicas\":1.0}"), json("{\"replicas\":1}"))).isTrue();
		assertThat(DependentJson.covers(json("{\"replicas\":2}"), json("{\"replicas\":1}"))).isFalse();
	}

	@Test
	void aSecretsStringDataIsComparedAsTheBase64DataTheServerStores() {
		JsonObject desired = json("{\"kind\":\"Secret\",\"stringData\":{\"token\":\"s3cret\"}}");
		JsonObject stored = DependentJson.asStored(desired);
		assertThat(stored.toString()).isEqualTo("{\"kind\":\"Secret\",\"data\":{\"token\":\"czNjcmV0\"}}");
		assertThat(desired.has("stringData")).isTrue();
		assertThat(DependentJson.covers(json("{\"kind\":\"Secret\",\"data\":{\"token\":\"czNjcmV0\"}}"), stored))
			.isTrue();
	}

	@Test
	void theApplySetIdIsKep3659sHashOfTheParent() {
		V1ConfigMap parent = new V1ConfigMap().metadata(new V1ObjectMeta().name("my-set").namespace("my-ns"));
		String id = DependentJson.applySetId(parent);
		// base64url, no padding, of sha256("my-set.my-ns.ConfigMap."), as Python computes
		// it
		assertThat(id).isEqualTo("applyset-cH6yId20fa7Ak8MtKIBN1H8OMqIef-Q9TNkI3Rl_ufo-v1");
		assertThat(id.length()).isLessThanOrEqualTo(63);
	}

	@Test
	void theHashChangesWithTheDesiredState() {
		assertThat(DependentJson.hash(json("{\"a\":1}"))).isEqualTo(DependentJson.hash(json("{\"a\":1}")))
			.isNotEqualTo(DependentJson.hash(json("{\"a\":2}")))
			.hasSize(32);
	}

	private static JsonObject json(String text) {
		return JsonParser.parseString(text).getAsJsonObject();
	}

}
