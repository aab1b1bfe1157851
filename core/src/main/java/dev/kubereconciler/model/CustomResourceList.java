package dev.kubereconciler.model;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.jspecify.annotations.Nullable;

/**
 * The list of any model that has no list class of its own, such as a
 * {@link CustomResource}: the informers read it with its item type, so that its items are
 * objects of the model class.
 *
 * @param <T> the model type of the items
 */
public final class CustomResourceList<T extends KubernetesObject> implements KubernetesListObject {

	private @Nullable String apiVersion;

	private @Nullable String kind;

	private V1ListMeta metadata = new V1ListMeta();

	private List<T> items = new ArrayList<>();

	@Override
	public @Nullable String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public @Nullable String getKind() {
		return this.kind;
	}

	@Override
	public V1ListMeta getMetadata() {
		return this.metadata;
	}

	@Override
	public List<T> getItems() {
		return this.items;
	}

	/**
	 * Return a client for the objects of a model with no list class of its own, at the
	 * coordinates of its {@link ResourceCoordinates}. Its writes and single reads give
	 * objects of the model; a list through it gives items client-java cannot type, so
	 * read lists from the cache.
	 * @param <T> the model type
	 * @param type the model class, annotated with {@link ResourceCoordinates}
	 * @param apiClient the client
	 * @return the API
	 * @throws IllegalArgumentException if the class has no {@link ResourceCoordinates}
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public static <T extends KubernetesObject> GenericKubernetesApi<T, CustomResourceList<T>> api(Class<T> type,
			ApiClient apiClient) {
		ResourceCoordinates resource = type.getAnnotation(ResourceCoordinates.class);
		if (resource == null) {
			throw new IllegalArgumentException(type.getName() + " has no @ResourceCoordinates");
		}
		return new GenericKubernetesApi(type, CustomResourceList.class, resource.group(), resource.version(),
				resource.plural(), apiClient);
	}

}
