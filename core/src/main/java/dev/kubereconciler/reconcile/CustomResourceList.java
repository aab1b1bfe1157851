package dev.kubereconciler.reconcile;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
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

}
