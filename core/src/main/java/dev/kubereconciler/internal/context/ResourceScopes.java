package dev.kubereconciler.internal.context;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import okhttp3.Call;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.reconcile.KubernetesResource;

/**
 * Whether a type's objects live in namespaces, read once per type: from
 * {@link KubernetesResource} when the model has it, otherwise from the API server's
 * discovery of its group and version.
 */
final class ResourceScopes {

	private final ApiClient apiClient;

	private final Map<Class<?>, Boolean> namespaced = new ConcurrentHashMap<>();

	ResourceScopes(ApiClient apiClient) {
		this.apiClient = apiClient;
	}

	/**
	 * Return whether a type is namespaced.
	 * @param type the type
	 * @return whether its objects live in namespaces
	 * @throws ApiException if discovery fails; nothing is remembered then
	 */
	boolean isNamespaced(ResourceType type) throws ApiException {
		Boolean known = this.namespaced.get(type.apiType());
		if (known != null) {
			return known;
		}
		KubernetesResource resource = type.apiType().getAnnotation(KubernetesResource.class);
		boolean scope = (resource != null) ? resource.namespaced() : discover(type);
		this.namespaced.put(type.apiType(), scope);
		return scope;
	}

	private boolean discover(ResourceType type) throws ApiException {
		String path = (type.group() == null || type.group().isEmpty()) ? "/api/" + type.version()
				: "/apis/" + type.group() + "/" + type.version();
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", "application/json");
		Call call = this.apiClient.buildCall(null, path, "GET", new ArrayList<>(), new ArrayList<>(), null, headers,
				new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null);
		V1APIResourceList list = this.apiClient.<V1APIResourceList>execute(call, V1APIResourceList.class).getData();
		for (V1APIResource resource : list.getResources()) {
			if (type.plural().equals(resource.getName())) {
				return resource.getNamespaced();
			}
		}
		throw new IllegalStateException("The API server does not serve " + type.displayName() + " (" + path + " has no "
				+ type.plural() + "), so no dependent of that type can be applied");
	}

}
