package dev.kubereconciler.sample.widget;

import java.util.ArrayList;
import java.util.List;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * A list of {@link Widget}s, as the API server returns it.
 */
public class WidgetList implements KubernetesListObject {

	@SerializedName("apiVersion")
	private String apiVersion = Widget.API_VERSION;

	@SerializedName("kind")
	private String kind = "WidgetList";

	@SerializedName("metadata")
	private V1ListMeta metadata;

	@SerializedName("items")
	private List<Widget> items = new ArrayList<>();

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	public void setApiVersion(String apiVersion) {
		this.apiVersion = apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	public void setKind(String kind) {
		this.kind = kind;
	}

	@Override
	public V1ListMeta getMetadata() {
		return this.metadata;
	}

	public void setMetadata(V1ListMeta metadata) {
		this.metadata = metadata;
	}

	@Override
	public List<Widget> getItems() {
		return this.items;
	}

	public void setItems(List<Widget> items) {
		this.items = items;
	}

}
