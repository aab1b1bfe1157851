package dev.kubereconciler.internal.context;

import java.util.HashMap;
import java.util.Map;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ModelDefaults}: the empty maps and lists a constructor put there are
 * removed, also inside the spec of a model on the base class, whose field type is a type
 * variable.
 */
class ModelDefaultsTests {

	@Test
	void prunesConstructorDefaultsInsideTheSpecOfACustomResource() {
		Backup backup = new Backup();
		backup.getMetadata().name("nightly");
		BackupSpec spec = new BackupSpec();
		spec.podMetadata = new V1ObjectMeta().name("pod");
		spec.selector = new HashMap<>();
		backup.setSpec(spec);
		JsonObject json = new JSON().getGson().toJsonTree(backup).getAsJsonObject();
		assertThat(json.getAsJsonObject("spec").getAsJsonObject("podMetadata").has("labels")).isTrue();
		ModelDefaults.prune(json, Backup.class);
		JsonObject pruned = json.getAsJsonObject("spec");
		// the model's defaults go, the empty selector the user set stays
		assertThat(pruned.getAsJsonObject("podMetadata").keySet()).containsExactly("name");
		assertThat(pruned.getAsJsonObject("selector").isEmpty()).isTrue();
		assertThat(json.getAsJsonObject("metadata").keySet()).containsExactly("name");
	}

	@ResourceCoordinates(group = "example.com", version = "v1", kind = "Backup", plural = "backups")
	static class Backup extends CustomResource<BackupSpec, Object> {

	}

	static class BackupSpec {

		V1ObjectMeta podMetadata;

		Map<String, String> selector;

	}

}
