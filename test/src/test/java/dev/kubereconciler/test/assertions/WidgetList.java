package dev.kubereconciler.test.assertions;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * The list type of {@link Widget}.
 */
public class WidgetList implements KubernetesListObject {

	private String apiVersion = Widget.GROUP + "/v1";

	private String kind = "WidgetList";

	private V1ListMeta metadata;

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

	@Override
	public List<Widget> getItems() {
		return this.items;
	}

}
