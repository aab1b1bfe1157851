package dev.kubereconciler.internal.dependent;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.internal.context.KubernetesWriter;
import dev.kubereconciler.internal.context.ReconcileSupport;
import dev.kubereconciler.reconcile.DependentsStatus;

/**
 * Keeps the dependents' {@code Ready} condition in a primary object's
 * {@code status.conditions}, with apimachinery's rules: the transition time changes only
 * with the status, and nothing is written when the condition is as wanted. The other
 * conditions are kept as they are; the patch carries the resourceVersion it was computed
 * from, so that a concurrent status write makes it fail with 409 Conflict and retry.
 */
final class ReadyCondition {

	static final String TYPE = "Ready";

	private final KubernetesWriter writer;

	private final ReconcileSupport support;

	private final Clock clock;

	ReadyCondition(KubernetesWriter writer, ReconcileSupport support, Clock clock) {
		this.writer = writer;
		this.support = support;
		this.clock = clock;
	}

	/**
	 * Write the condition of a status onto the newest known version of a primary, if it
	 * differs.
	 * @param key the primary's key
	 * @param type the primary's model class
	 * @param status the dependents' status
	 * @param failed whether a dependent failed, rather than is not ready
	 * @throws Exception if the write fails
	 */
	void write(String key, Class<?> type, DependentsStatus status, boolean failed) throws Exception {
		KubernetesObject current = this.support.views().require(type).get(key);
		if (current == null || current.getMetadata().getDeletionTimestamp() != null) {
			return;
		}
		JsonObject json = JSON.getGson().toJsonTree(current).getAsJsonObject();
		JsonObject statusJson = (json.get("status") instanceof JsonObject object) ? object : new JsonObject();
		JsonArray conditions = (statusJson.get("conditions") instanceof JsonArray array) ? array : new JsonArray();
		String wanted = status.ready() ? "True" : "False";
		String reason = status.ready() ? "DependentsReady" : (failed ? "DependentFailed" : "DependentNotReady");
		Long generation = current.getMetadata().getGeneration();
		JsonObject existing = find(conditions);
		if (existing != null && wanted.equals(string(existing, "status")) && reason.equals(string(existing, "reason"))
				&& status.message().equals(string(existing, "message")) && Objects.equals(
						(generation != null) ? generation.toString() : null, string(existing, "observedGeneration"))) {
			return;
		}
		JsonObject condition = new JsonObject();
		condition.addProperty("type", TYPE);
		condition.addProperty("status", wanted);
		condition.addProperty("reason", reason);
		condition.addProperty("message", status.message());
		if (generation != null) {
			condition.addProperty("observedGeneration", generation);
		}
		String transition = (existing != null && wanted.equals(string(existing, "status"))
				&& string(existing, "lastTransitionTime") != null) ? string(existing, "lastTransitionTime")
						: DateTimeFormatter.ISO_OFFSET_DATE_TIME
							.format(OffsetDateTime.now(this.clock).truncatedTo(ChronoUnit.SECONDS));
		condition.addProperty("lastTransitionTime", transition);
		JsonArray updated = new JsonArray();
		boolean replaced = false;
		for (JsonElement element : conditions) {
			if (element == existing) {
				updated.add(condition);
				replaced = true;
			}
			else {
				updated.add(element);
			}
		}
		if (!replaced) {
			updated.add(condition);
		}
		JsonObject patchMetadata = new JsonObject();
		patchMetadata.addProperty("resourceVersion", current.getMetadata().getResourceVersion());
		JsonObject patchStatus = new JsonObject();
		patchStatus.add("conditions", updated);
		JsonObject patch = new JsonObject();
		patch.add("metadata", patchMetadata);
		patch.add("status", patchStatus);
		this.support.views().written(this.writer.mergePatchStatus(current, patch.toString()));
	}

	private static @Nullable JsonObject find(JsonArray conditions) {
		for (JsonElement element : conditions) {
			if (element instanceof JsonObject condition && TYPE.equals(string(condition, "type"))) {
				return condition;
			}
		}
		return null;
	}

	private static @Nullable String string(JsonObject object, String key) {
		JsonElement value = object.get(key);
		return (value != null && value.isJsonPrimitive()) ? value.getAsString() : null;
	}

}
