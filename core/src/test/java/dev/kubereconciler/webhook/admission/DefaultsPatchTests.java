package dev.kubereconciler.webhook.admission;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DefaultsPatch}; {@code WebhooksTests} shows it behind a defaulter's
 * endpoint.
 */
class DefaultsPatchTests {

	@Test
	void aNumberTheModelWritesDifferentlyIsNoChange() {
		JsonObject received = object("{\"spec\":{\"ratio\":1.0,\"color\":\"red\"}}");
		String patch = DefaultsPatch.of(received, json("{\"spec\":{\"ratio\":1,\"color\":\"red\"}}"),
				json("{\"spec\":{\"ratio\":1,\"color\":\"blue\"}}"));
		assertThat(patch).isEqualTo("[{\"op\":\"replace\",\"path\":\"/spec/color\",\"value\":\"blue\"}]");
	}

	@Test
	void theDefaultersValuesArePatchedAsTheModelWritesThem() {
		JsonObject received = object("{\"spec\":{}}");
		String patch = DefaultsPatch.of(received, json("{\"spec\":{}}"),
				json("{\"spec\":{\"ratio\":0.5,\"replicas\":3,\"enabled\":true,\"tags\":[\"a\",null]}}"));
		assertThat(patch).isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/ratio\",\"value\":0.5},"
				+ "{\"op\":\"add\",\"path\":\"/spec/replicas\",\"value\":3},"
				+ "{\"op\":\"add\",\"path\":\"/spec/enabled\",\"value\":true},"
				+ "{\"op\":\"add\",\"path\":\"/spec/tags\",\"value\":[\"a\",null]}]");
	}

	@Test
	void aDefaultTheReceivedObjectHadAlreadyIsNoPatch() {
		JsonObject received = object("{\"spec\":{\"replicas\":3}}");
		assertThat(DefaultsPatch.of(received, json("{\"spec\":{}}"), json("{\"spec\":{\"replicas\":3}}"))).isNull();
	}

	private static JsonObject object(String json) {
		return json(json).getAsJsonObject();
	}

	private static JsonElement json(String json) {
		return JsonParser.parseString(json);
	}

}
