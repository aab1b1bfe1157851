package dev.kubereconciler.internal.dependent;

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
		// ports merge by key: a port someone else added is theirs
		assertThat(DependentJson
			.covers(json("{\"data\":{\"a\":\"1\"},\"spec\":{\"ports\":[{\"port\":81},{\"port\":80}]}}"), desired))
			.isTrue();
	}

	@Test
	void aDesiredZeroValueMatchesTheAbsentFieldTheApiOmits() {
		JsonObject desired = json("{\"spec\":{\"minReadySeconds\":0,\"paused\":false,\"replicas\":1,"
				+ "\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"args\":[],\"workingDir\":\"\","
				+ "\"resources\":{}}]}}}}");
		JsonObject stored = json("{\"spec\":{\"replicas\":1,\"progressDeadlineSeconds\":600,"
				+ "\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{}}]}}}}");
		assertThat(DependentJson.covers(stored, desired)).isTrue();
		// a zero value someone changed is drift all the same
		assertThat(DependentJson.covers(json("{\"spec\":{\"replicas\":1,\"minReadySeconds\":5}}"),
				json("{\"spec\":{\"replicas\":1,\"minReadySeconds\":0}}")))
			.isFalse();
		assertThat(DependentJson.covers(json("{\"spec\":{\"paused\":true}}"), json("{\"spec\":{\"paused\":false}}")))
			.isFalse();
		// and a value that is not zero must be there
		assertThat(DependentJson.covers(json("{\"spec\":{}}"), json("{\"spec\":{\"minReadySeconds\":1}}"))).isFalse();
	}

	@Test
	void aKeyedListIsCoveredWhenEachDesiredElementIsThereByKeyWhateverOthersAdded() {
		JsonObject desired = json("{\"metadata\":{\"ownerReferences\":[{\"uid\":\"u1\",\"controller\":true}]},"
				+ "\"spec\":{\"containers\":[{\"name\":\"app\",\"env\":[{\"name\":\"A\",\"value\":\"1\"}],"
				+ "\"ports\":[{\"containerPort\":8080}]}]}}");
		JsonObject actual = json("{\"metadata\":{\"ownerReferences\":[{\"uid\":\"u0\"},"
				+ "{\"uid\":\"u1\",\"controller\":true}]},\"spec\":{\"containers\":[{\"name\":\"sidecar\"},"
				+ "{\"name\":\"app\",\"env\":[{\"name\":\"B\",\"value\":\"x\"},{\"name\":\"A\",\"value\":\"1\"}],"
				+ "\"ports\":[{\"containerPort\":9090,\"protocol\":\"TCP\"},"
				+ "{\"containerPort\":8080,\"protocol\":\"TCP\"}]}]}}");
		assertThat(DependentJson.covers(actual, desired)).isTrue();
		// the element of the same key holds another value: drift
		assertThat(DependentJson.covers(json(actual.toString().replace("\"value\":\"1\"", "\"value\":\"2\"")), desired))
			.isFalse();
		// the element of that key is gone
		assertThat(DependentJson.covers(json(actual.toString().replace("\"A\"", "\"C\"")), desired)).isFalse();
	}

	@Test
	void anAtomicListIsComparedWholeBecauseAnApplyReplacesIt() {
		JsonObject desired = json("{\"spec\":{\"args\":[\"a\",\"b\"],\"tolerations\":[{\"key\":\"k\"}]}}");
		assertThat(DependentJson.covers(json("{\"spec\":{\"args\":[\"a\",\"b\"],\"tolerations\":[{\"key\":\"k\"}]}}"),
				desired))
			.isTrue();
		assertThat(DependentJson.covers(json("{\"spec\":{\"args\":[\"b\",\"a\"],\"tolerations\":[{\"key\":\"k\"}]}}"),
				desired))
			.isFalse();
		assertThat(DependentJson.covers(
				json("{\"spec\":{\"args\":[\"a\",\"b\"],\"tolerations\":[{\"key\":\"k\"},{\"key\":\"x\"}]}}"), desired))
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
