package dev.kubereconciler.test.gc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1APIResource;
import org.jspecify.annotations.Nullable;

/**
 * What the collector watches and how it finds owners, from the API server's discovery:
 * every resource that can be listed, watched and deleted, in its group's preferred
 * version, as kube-controller-manager's garbage collector finds them. Events are left
 * out, as that collector leaves them out: they are many and own nothing.
 *
 * @param watched the resources to watch
 * @param byKind every resource of every served version, by {@code apiVersion/kind}
 */
record ResourceDiscovery(List<ResourceType> watched, Map<String, ResourceType> byKind) {

	private static final Set<String> IGNORED = Set.of("events", "events.events.k8s.io");

	static ResourceDiscovery discover(MetadataClient client) throws ApiException {
		List<ResourceType> watched = new ArrayList<>();
		Map<String, ResourceType> byKind = new HashMap<>();
		add(client, "", "v1", true, watched, byKind);
		for (JsonElement element : client.discovery("/apis").getAsJsonArray("groups")) {
			JsonObject group = element.getAsJsonObject();
			String name = group.get("name").getAsString();
			String preferred = group.getAsJsonObject("preferredVersion").get("version").getAsString();
			for (JsonElement version : group.getAsJsonArray("versions")) {
				String v = version.getAsJsonObject().get("version").getAsString();
				add(client, name, v, v.equals(preferred), watched, byKind);
			}
		}
		return new ResourceDiscovery(List.copyOf(watched), Map.copyOf(byKind));
	}

	private static void add(MetadataClient client, String group, String version, boolean preferred,
			List<ResourceType> watched, Map<String, ResourceType> byKind) throws ApiException {
		String path = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
		for (V1APIResource resource : client.resources(path).getResources()) {
			if (resource.getName().contains("/")) {
				continue;
			}
			ResourceType type = new ResourceType(group, version, resource.getName(), resource.getKind(),
					Boolean.TRUE.equals(resource.getNamespaced()));
			byKind.put(type.apiVersion() + "/" + type.kind(), type);
			List<String> verbs = resource.getVerbs();
			if (preferred && verbs.containsAll(List.of("list", "watch", "delete"))
					&& !IGNORED.contains(type.toString())) {
				watched.add(type);
			}
		}
	}

	/**
	 * The resource of an owner reference's apiVersion and kind, if discovery knows it.
	 */
	@Nullable ResourceType resourceOf(String apiVersion, String kind) {
		return this.byKind.get(apiVersion + "/" + kind);
	}

}
