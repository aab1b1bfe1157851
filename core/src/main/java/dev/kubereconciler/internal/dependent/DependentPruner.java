package dev.kubereconciler.internal.dependent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.DependentLabels;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.internal.cache.CacheView;
import dev.kubereconciler.internal.context.KubernetesWriter;
import dev.kubereconciler.internal.context.ReconcileSupport;

/**
 * Deletes the objects a controller applied for a primary and no longer wants. An object
 * is found by its ApplySet label, through the cache's index of that label, and deleted
 * only when the server says this controller applied it and it belongs to this primary,
 * with a uid precondition: an object someone else made with the same labels is never
 * touched.
 *
 * @param <P> the primary type
 */
final class DependentPruner<P extends KubernetesObject> {

	private static final String DEPENDENT = DependentLabels.DEPENDENT;

	private static final String OWNER_UID = DependentLabels.OWNER_UID;

	private final Dependents<P> dependents;

	private final String controller;

	private final ReconcileSupport support;

	private final KubernetesWriter writer;

	DependentPruner(Dependents<P> dependents, String controller, ReconcileSupport support, KubernetesWriter writer) {
		this.dependents = dependents;
		this.controller = controller;
		this.support = support;
		this.writer = writer;
	}

	/**
	 * Delete what no longer belongs: for a reconcile, the objects their dependent no
	 * longer keeps; for a cleanup, every object that no owner reference reaches.
	 */
	void prune(String uid, String setId, Map<String, @Nullable Set<String>> kept, boolean cleanup)
			throws DependentFailure {
		Map<String, Dependent<P, ?>> enabled = new LinkedHashMap<>();
		this.dependents.order().forEach((dependent) -> enabled.put(dependent.name(), dependent));
		for (Class<? extends KubernetesObject> type : this.dependents.types()) {
			// every member of the set, by the label's index: what no owner reference
			// reaches is found after a restart, or on another replica, as well
			for (KubernetesObject object : this.support.views().require(type).partOf(setId)) {
				String key = Caches.metaNamespaceKeyFunc(object);
				String name = label(object, DEPENDENT);
				if (name == null) {
					continue;
				}
				Dependent<P, ?> dependent = enabled.get(name);
				boolean wanted = cleanup ? ownedBy(object, uid) : dependent != null && dependent.type() == type
						&& (!kept.containsKey(name) || keeps(kept.get(name), key));
				if (!wanted) {
					try {
						delete(object, uid, name);
					}
					catch (Exception ex) {
						throw new DependentFailure(name, ex);
					}
				}
			}
		}
	}

	private static boolean keeps(@Nullable Set<String> keys, String key) {
		return keys == null || keys.contains(key);
	}

	/**
	 * Delete an object once the server confirms that this controller applied it for this
	 * primary: an object of the same labels that someone else made is never touched. The
	 * proof is read from the server's JSON, whose {@code managedFields} no client setting
	 * can drop.
	 */
	private void delete(KubernetesObject cached, String uid, String dependent) throws Exception {
		JsonObject live = this.writer.readJson(cached);
		if (live == null || !appliedByThisController(live) || !belongsTo(live, uid)) {
			return;
		}
		String liveUid = string(metadata(live).get("uid"));
		if (liveUid != null && this.writer.deleteExactly(cached, liveUid)) {
			CacheView view = this.support.views().view(cached.getClass());
			if (view != null) {
				view.deleted(JSON.getGson().fromJson(live, cached.getClass()));
			}
			this.support.listener().dependentPruned(this.controller, dependent);
		}
	}

	private boolean appliedByThisController(JsonObject live) {
		for (JsonElement entry : array(metadata(live).get("managedFields"))) {
			if (entry.isJsonObject() && this.controller.equals(string(entry.getAsJsonObject().get("manager")))
					&& "Apply".equals(string(entry.getAsJsonObject().get("operation")))
					&& string(entry.getAsJsonObject().get("subresource")) == null) {
				return true;
			}
		}
		return false;
	}

	private static boolean belongsTo(JsonObject live, String uid) {
		JsonObject metadata = metadata(live);
		for (JsonElement reference : array(metadata.get("ownerReferences"))) {
			if (reference.isJsonObject() && uid.equals(string(reference.getAsJsonObject().get("uid")))) {
				return true;
			}
		}
		JsonElement annotations = metadata.get("annotations");
		return annotations != null && annotations.isJsonObject()
				&& uid.equals(string(annotations.getAsJsonObject().get(OWNER_UID)));
	}

	private static JsonObject metadata(JsonObject object) {
		JsonElement metadata = object.get("metadata");
		return (metadata != null && metadata.isJsonObject()) ? metadata.getAsJsonObject() : new JsonObject();
	}

	private static JsonArray array(@Nullable JsonElement element) {
		return (element != null && element.isJsonArray()) ? element.getAsJsonArray() : new JsonArray();
	}

	private static @Nullable String string(@Nullable JsonElement element) {
		return (element != null && element.isJsonPrimitive()) ? element.getAsString() : null;
	}

	private static @Nullable String label(KubernetesObject object, String key) {
		Map<String, String> labels = object.getMetadata().getLabels();
		return (labels != null) ? labels.get(key) : null;
	}

	static boolean ownedBy(KubernetesObject object, String uid) {
		List<V1OwnerReference> references = object.getMetadata().getOwnerReferences();
		if (references != null) {
			for (V1OwnerReference reference : references) {
				if (uid.equals(reference.getUid())) {
					return true;
				}
			}
		}
		return false;
	}

}
