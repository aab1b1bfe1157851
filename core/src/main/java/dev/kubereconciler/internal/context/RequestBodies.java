package dev.kubereconciler.internal.context;

import java.util.List;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;

import dev.kubereconciler.cache.ResourceType;

/**
 * The bodies a {@link KubernetesWriter} sends: an object's JSON with its type set, and
 * for an apply without the managed fields and the empty values the models start with.
 */
final class RequestBodies {

	private RequestBodies() {
	}

	/**
	 * The body of a create or an update: the object with its type set.
	 */
	static String json(KubernetesObject object) {
		JsonObject json = JSON.getGson().toJsonTree(object).getAsJsonObject();
		typeMeta(json, ResourceType.of(object.getClass()));
		return json.toString();
	}

	/**
	 * The body of an apply: the object with its type set and without managed fields,
	 * which an apply must not carry; for the status subresource, only its name and
	 * status.
	 */
	static JsonObject apply(KubernetesObject object, boolean statusOnly) {
		JsonObject json = JSON.getGson().toJsonTree(object).getAsJsonObject();
		JsonObject metadata = json.getAsJsonObject("metadata");
		if (metadata != null) {
			metadata.remove("managedFields");
		}
		if (statusOnly) {
			JsonObject slim = new JsonObject();
			JsonObject slimMetadata = new JsonObject();
			for (String key : List.of("name", "namespace")) {
				if (metadata != null && metadata.has(key)) {
					slimMetadata.add(key, metadata.get(key));
				}
			}
			slim.add("metadata", slimMetadata);
			JsonElement status = json.get("status");
			if (status != null) {
				slim.add("status", status);
			}
			json = slim;
		}
		// an apply that sent the empty maps and lists the models start with would make
		// the controller the manager of fields it never meant to set
		ModelDefaults.prune(json, object.getClass());
		typeMeta(json, ResourceType.of(object.getClass()));
		return json;
	}

	private static void typeMeta(JsonObject json, ResourceType type) {
		if (!json.has("apiVersion")) {
			json.addProperty("apiVersion", type.apiVersion());
		}
		if (!json.has("kind")) {
			json.addProperty("kind", type.kind());
		}
	}

}
