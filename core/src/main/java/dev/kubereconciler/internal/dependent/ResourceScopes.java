package dev.kubereconciler.internal.dependent;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1APIResource;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.internal.context.ServedResources;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * Whether a type's objects live in namespaces, read once per type: from
 * {@link ResourceCoordinates} when the model has it, otherwise from the API server's
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
		ResourceCoordinates resource = type.apiType().getAnnotation(ResourceCoordinates.class);
		boolean scope = (resource != null) ? resource.namespaced() : discover(type);
		this.namespaced.put(type.apiType(), scope);
		return scope;
	}

	private boolean discover(ResourceType type) throws ApiException {
		String path = ServedResources.groupVersionPath(type);
		for (V1APIResource resource : ServedResources.resources(this.apiClient, path).getResources()) {
			if (type.plural().equals(resource.getName())) {
				return resource.getNamespaced();
			}
		}
		throw new IllegalStateException("The API server does not serve " + type.displayName() + " (" + path + " has no "
				+ type.plural() + "), so no dependent of that type can be applied");
	}

}
